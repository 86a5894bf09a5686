#!/usr/bin/env bash
# Lint cost: what locklint adds over the analysis driver it runs in.
#
#   bash bench/lintcost.sh [ROUNDS]     # default 5 rounds
#
# On the Redis-heavy part of the sweep corpus it times, alternating
# A B A B so that drift in the machine's speed hits both alike:
#   go vet -vettool=locklint   beside   go vet -vettool=noop (same driver,
#   one analyzer that returns at once) and plain go vet; then standalone
#   locklint beside standalone noop.
# The build cache is warm (a first untimed round fills it), but go vet's
# cached results are not reused: go vet keys them by the vet tool's ID, a
# hash of the executable, so every round appends a new salt to fresh copies
# of both tools. Figures are medians from /usr/bin/time (GNU time: apt-get
# install time); ratios are locklint/noop. Targets: CPU <= 1.05, RSS <= 1.10.
#
# Then the one-run superset of go vet (locklint-vet) against what it replaces,
# plain go vet and locklint run one after the other: CPU against the sum
# of the two, peak RSS against the larger. Plain go vet is kept from its
# cache by a new -printf.funcs value each round (a name no code calls),
# which changes the key of every vet action as a new tool ID does.
set -euo pipefail
cd "$(dirname "$0")"
rounds=${1:-5}

pkgs=(
  github.com/redis/go-redis/v9/...
  github.com/hibiken/asynq/...
  github.com/zeromicro/go-zero/core/...
  github.com/bsm/redislock/...
  github.com/go-redsync/redsync/v4
  github.com/go-redsync/redsync/v4/redis/goredis/...
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd .. && go build -o "$work/locklint.bin" ./cmd/locklint && go build -o "$work/locklint-vet.bin" ./cmd/locklint-vet)
go build -o "$work/noop.bin" ./cmd/noop
# Only now: the root module's build must not run with -mod=mod, which
# would let the go command rewrite its go.mod.
export GOFLAGS=-mod=mod

# salted NAME ROUND: a copy of the tool with a unique tail, so a new
# tool ID. The ELF loader ignores bytes after the last segment.
salted() {
  local f=$work/$1.$2
  cp "$work/$1.bin" "$f"
  printf 'salt %s %s %s' "$1" "$2" "$RANDOM$RANDOM" >>"$f"
  echo "$f"
}

# measure LABEL CMD...: one timed run; appends "wall user+sys maxrss_kb".
measure() {
  local label=$1
  shift
  /usr/bin/time -f '%e %U %S %M' -o "$work/t" "$@" >/dev/null 2>&1 || true
  # A run that exits non-zero (go vet with findings) gets a "Command
  # exited with non-zero status" line first; only the last line is ours.
  tail -n 1 "$work/t" | awk -v l="$label" '{printf "%s %.2f %.2f %d\n", l, $1, $2 + $3, $4}' >>"$work/runs"
}

# Warm the build cache (compiling the corpus is not what we measure).
go vet "${pkgs[@]}" >/dev/null 2>&1 || true
"$work/noop.bin" "${pkgs[@]}" >/dev/null 2>&1 || true

for r in $(seq 1 "$rounds"); do
  measure vet-locklint go vet -vettool="$(salted locklint "$r")" "${pkgs[@]}"
  measure vet-noop go vet -vettool="$(salted noop "$r")" "${pkgs[@]}"
  # plain go vet caches its results; -a would rebuild everything, so its
  # runs after the first are cache hits and are shown for scale only.
  measure vet-default go vet "${pkgs[@]}"
  measure standalone-locklint "$work/locklint.bin" "${pkgs[@]}"
  measure standalone-noop "$work/noop.bin" "${pkgs[@]}"
  measure vet-fresh go vet -printf.funcs="lintcostsalt$r$RANDOM" "${pkgs[@]}"
  measure vet-combined go vet -vettool="$(salted locklint-vet "$r")" "${pkgs[@]}"
  measure standalone-combined "$work/locklint-vet.bin" "${pkgs[@]}"
done

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
col() { awk -v l="$1" -v c="$2" '$1==l {print $c}' "$work/runs" | median; }

printf '%-20s %8s %8s %10s\n' run wall_s cpu_s maxrss_MB
for l in vet-locklint vet-noop vet-default standalone-locklint standalone-noop vet-fresh vet-combined standalone-combined; do
  printf '%-20s %8.2f %8.2f %10.0f\n' "$l" "$(col "$l" 2)" "$(col "$l" 3)" "$(echo "$(col "$l" 4) / 1024" | bc -l)"
done
ratio() { echo "scale=3; $(col "$1" "$3") / $(col "$2" "$3")" | bc -l; }
for mode in vet standalone; do
  printf '%s locklint/noop: wall %s  cpu %s  rss %s\n' "$mode" \
    "$(ratio "$mode-locklint" "$mode-noop" 2)" "$(ratio "$mode-locklint" "$mode-noop" 3)" "$(ratio "$mode-locklint" "$mode-noop" 4)"
done
# against_separate MODE: the locklint-vet run against go vet then locklint.
against_separate() {
  local c=$1-combined l=$1-locklint
  printf '%s locklint-vet / (go vet + locklint): wall %s  cpu %s  rss %s (against the larger)\n' "$1" \
    "$(echo "scale=3; $(col "$c" 2) / ($(col vet-fresh 2) + $(col "$l" 2))" | bc -l)" \
    "$(echo "scale=3; $(col "$c" 3) / ($(col vet-fresh 3) + $(col "$l" 3))" | bc -l)" \
    "$(echo "scale=3; a = $(col vet-fresh 4); b = $(col "$l" 4); if (b > a) a = b; $(col "$c" 4) / a" | bc -l)"
}
against_separate vet
against_separate standalone
