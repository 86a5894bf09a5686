#!/usr/bin/env bash
# Reliability sweep: runs `locklint -json` over the standard library and a
# corpus of real Redis-heavy and large modules (pinned in corpus.go and this
# module's go.mod), and fails when the linter panics or an analyzer returns
# an error. Type errors of the corpus itself are counted apart: they are the
# corpus's, not ours.
#
#   bash bench/sweep.sh            # std and the whole corpus
#   bash bench/sweep.sh -quick     # std and the Redis client and lock modules only
#
# Findings are written to $SWEEP_OUT (default a temporary directory) as
# one JSON file per group, for review.
set -euo pipefail
cd "$(dirname "$0")"

quick=false
[ "${1:-}" = -quick ] && quick=true

out=${SWEEP_OUT:-$(mktemp -d)}
mkdir -p "$out"
bin=$out/locklint
(cd .. && go build -o "$bin" ./cmd/locklint)

# Packages from the module cache resolve through this module's build list.
export GOFLAGS=-mod=mod

groups=(
  "std|std"
  "go-redis|github.com/redis/go-redis/v9/..."
  "redsync|github.com/go-redsync/redsync/v4 github.com/go-redsync/redsync/v4/redis/goredis/... github.com/go-redsync/redsync/v4/redis/redigo github.com/go-redsync/redsync/v4/redis/rueidis"
  "redislock|github.com/bsm/redislock/..."
  "asynq|github.com/hibiken/asynq/..."
  "go-zero|github.com/zeromicro/go-zero/core/..."
)
if ! $quick; then
  groups+=(
    "client_golang|github.com/prometheus/client_golang/..."
    "x-tools|golang.org/x/tools/..."
  )
fi

fail=0
total_pkgs=0 total_lines=0 total_panics=0 total_internal=0 total_typeerr=0
printf '%-14s %6s %9s %7s %8s %8s %9s %6s  %s\n' group pkgs lines skipped panics internal typeerrs secs findings
for g in "${groups[@]}"; do
  name=${g%%|*}
  read -r -a pats <<<"${g#*|}"
  # Packages whose own or dependencies' loading fails (a module the corpus
  # needs but the proxy does not serve) are skipped, and counted.
  go list -e -f '{{if or .Error .DepsErrors}}SKIP {{.ImportPath}}{{else}}OK {{.ImportPath}}{{end}}' "${pats[@]}" >"$out/$name.list"
  mapfile -t pkgs < <(awk '$1=="OK"{print $2}' "$out/$name.list")
  skipped=$(grep -c '^SKIP' "$out/$name.list" || true)
  lines=$(go list -f '{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .CgoFiles}}{{$d}}/{{.}}
{{end}}{{range .TestGoFiles}}{{$d}}/{{.}}
{{end}}{{range .XTestGoFiles}}{{$d}}/{{.}}
{{end}}' "${pkgs[@]}" | grep . | xargs cat | wc -l)

  start=$SECONDS
  set +e
  "$bin" -json "${pkgs[@]}" >"$out/$name.json" 2>"$out/$name.stderr"
  rc=$?
  set -e
  # An analyzer panic is not recovered by the driver: it kills the process
  # with exit status 2 and a "panic:" trace.
  panics=$(grep -c -E '^panic:|internal error' "$out/$name.stderr" || true)
  [ "$rc" -ge 2 ] && [ "$panics" = 0 ] && panics=1
  # Analyzer errors are reported in the JSON tree; "analysis skipped due to
  # errors in package" is the corpus's type error, not ours.
  internal=$(jq '[.. | objects | select(has("error")) | .error | select(test("skipped due to errors") | not)] | length' "$out/$name.json" 2>/dev/null || echo 1)
  typeerrs=$(grep -c -E '^[^ ]+\.go:[0-9]+:[0-9]+: ' "$out/$name.stderr" || true)
  findings=$(jq -r '[to_entries[] | .value | to_entries[] | select(.value|type=="array") | {a: .key, n: (.value|length)}] | group_by(.a) | map("\(.[0].a)=\(map(.n)|add)") | join(",")' "$out/$name.json" 2>/dev/null || echo "?")
  printf '%-14s %6d %9d %7d %8d %8d %9d %6d  %s\n' "$name" "${#pkgs[@]}" "$lines" "$skipped" "$panics" "$internal" "$typeerrs" $((SECONDS - start)) "${findings:--}"
  total_pkgs=$((total_pkgs + ${#pkgs[@]})) total_lines=$((total_lines + lines))
  total_panics=$((total_panics + panics)) total_internal=$((total_internal + internal)) total_typeerr=$((total_typeerr + typeerrs))
  if [ "$panics" != 0 ] || [ "$internal" != 0 ]; then
    echo "sweep: $name: locklint failed (exit $rc); see $out/$name.stderr and $out/$name.json" >&2
    grep -m 20 -E -A 15 '^panic:|internal error' "$out/$name.stderr" >&2 || true
    fail=1
  fi
done
printf '%-14s %6d %9d %7s %8d %8d %9d\n' total "$total_pkgs" "$total_lines" - "$total_panics" "$total_internal" "$total_typeerr"
echo "sweep: results in $out"
exit $fail
