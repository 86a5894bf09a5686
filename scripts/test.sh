#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs what the tests need
# (redis-server and redis-cli from Debian's packages, when run as root),
# then vets and tests every package. The library tests start their own
# redis-server processes (standalone, ACL, 3-master Cluster) on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."

need_redis() { ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; }
if need_redis; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq redis-server >/dev/null || { apt-get update -qq && apt-get install -y -qq redis-server >/dev/null; }
  fi
fi
if need_redis; then
  echo "test.sh: redis-server is missing; install Debian's redis-server package" >&2
  # Outside CI the library's real-server tests skip; in CI they must run.
  [ -n "${CI:-}" ] && exit 1
fi
echo "test.sh: $(go version); redis: $(redis-server --version 2>/dev/null | head -1 || echo none)"

# The suite builds copies of modules in temporary directories, and each copy
# adds its own entries to Go's build cache: over many runs the cache grows
# by gigabytes, and a full disk makes the loaders fail with package errors
# far from the cause. Say how much room there is; in CI, start from an empty
# build cache when room is short.
free_kib() { df -Pk "$1" | awk 'NR == 2 { print $4 }'; }
gocache=$(go env GOCACHE)
mkdir -p "$gocache"
echo "test.sh: free space for the build cache: $(( $(free_kib "$gocache") / 1048576 )) GiB"
if [ "$(free_kib "$gocache")" -lt $(( 12 * 1048576 )) ] && [ -n "${CI:-}" ]; then
  echo "test.sh: less than 12 GiB free; emptying the build cache ($(du -sh "$gocache" 2>/dev/null | cut -f1))"
  go clean -cache
fi
if [ "$(free_kib "$gocache")" -lt $(( 4 * 1048576 )) ]; then
  echo "test.sh: warning: less than 4 GiB free where the build cache is ($gocache); the suite may fail to write its builds" >&2
fi

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null | grep -v '^testdata/' || echo .))
if [ -n "$unformatted" ]; then
  echo "test.sh: gofmt -l lists:" >&2
  echo "$unformatted" >&2
  exit 1
fi
go vet ./...
# The analyzer and driver packages type-check the client modules many
# times over; on a loaded 2-core machine one can take minutes, so the
# per-package limit is raised from go test's 10 minutes.
go test -count=1 -timeout=45m ./...
# The lock library's core is its own module (services import it without
# the linter's dependencies, and without any client), vetted at the oldest
# Go it declares. Its behaviour tests (below) measure leases and
# deadlines against real servers: they run alone, so the analyzer tests'
# CPU load does not eat into their timing margins.
(cd analyzer/fix/lock && GOTOOLCHAIN=local go vet ./... && go test -count=1 ./...)
# Package fix, the go-redis v9 front of the library, is a module of its
# own too, so that lock requires no client at all. The library's modules
# build together through analyzer/fix/go.work (see RELEASING.md there).
(cd analyzer/fix && GOTOOLCHAIN=local go vet . && go test -count=1 .)
# Its behaviour tests are a module of their own too, so the library's
# go.mod lists only go-redis; they run the core behaviour through every
# client adapter, and check every module as a consumer sees it (its graph,
# and a fresh service built from a file proxy of the modules).
(cd analyzer/fix/internal/behaviour && GOTOOLCHAIN=local go vet ./... && go test -count=1 ./...)
# The client adapters: modules of their own, so that each service's module
# graph holds only its client (the behaviour module checks that).
for m in fixgoredis8 fixredigo fixrueidis fixvalkey; do
  (cd analyzer/fix/$m && GOTOOLCHAIN=local go vet ./... && go test -count=1 ./...)
done
# The OpenTelemetry adapter: a module of its own, so only its users see
# OpenTelemetry in their module graph.
(cd analyzer/fix/fixotel && GOTOOLCHAIN=local go vet ./... && go test -count=1 ./...)
# The examples module uses the library through a replace directive.
(cd examples && go vet ./... && go test -count=1 ./...)
# Smoke run of the lock benchmark (its own module, a few seconds): it
# exits non-zero if any implementation lets two critical sections overlap.
(cd bench/lockbench && go vet ./... && go run . -quick)
# golangci-lint with the locklint module plugin compiled in. Its own module,
# so golangci-lint never becomes a dependency of the root module; the first
# build of it takes a few minutes on a cold cache.
(cd integration/golangci && go vet ./... && go test -count=1 ./...)
# The pre-commit hook, run with pre-commit try-repo from this working tree.
if ! command -v pre-commit >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq pre-commit >/dev/null || { apt-get update -qq && apt-get install -y -qq pre-commit >/dev/null; }
fi
if command -v pre-commit >/dev/null 2>&1; then
  bash integration/precommit/test.sh
elif [ -n "${CI:-}" ]; then
  echo "test.sh: pre-commit is missing; install Debian's pre-commit package" >&2
  exit 1
else
  echo "test.sh: pre-commit is missing; skipping the pre-commit hook test" >&2
fi
# Reliability sweep: locklint over the standard library and the whole
# corpus (bench/, its own module: 704 packages, 1.5M lines, about a minute);
# it fails on any panic or analyzer error.
(cd bench && go vet ./...)
bash bench/sweep.sh
# Fuzz the lock-word classifier, the key renderer and the Lua scanner for a
# bounded number of inputs (about 15 s each here); their seed corpora already
# ran as unit tests above. A count, not a duration: a duration's deadline can
# end the run in the middle of a new input's minimisation and fail it with
# "context deadline exceeded" and no finding.
for target in FuzzSplitWords FuzzWordsSet FuzzKeyID; do
  go test -run='^$' -fuzz="^${target}\$" -fuzztime=250000x ./analyzer/lockmodel/
done
go test -run='^$' -fuzz='^FuzzLuaCalls$' -fuzztime=400000x ./analyzer/lockmodel/internal/lua/
