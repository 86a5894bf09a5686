#!/usr/bin/env bash
# Runs the locklint pre-commit hook from this repository's working tree
# (pre-commit try-repo) on two scratch repositories: one with a lock bug,
# which must fail and print the finding, and one clean, which must pass.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
command -v pre-commit >/dev/null || { echo "precommit/test.sh: pre-commit is missing" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A private hook cache, so the run builds locklint from this tree and
# not from an environment cached for an older commit.
export PRE_COMMIT_HOME="$work/cache"
# pre-commit points GOPATH into its hook environment, which would
# download every module again; share the usual module cache instead.
export GOMODCACHE="$(go env GOMODCACHE)"

scratch() { # scratch DIR SOURCE: a git repository with one Go package
  mkdir -p "$1/worker"
  cat > "$1/go.mod" <<'MOD'
module example.com/scratch

go 1.26.0

require github.com/redis/go-redis/v9 v9.23.0
MOD
  printf '%s\n' "$2" > "$1/worker/worker.go"
  (cd "$1" && go mod tidy >/dev/null && git init -q && git add -A &&
    git -c user.name=t -c user.email=t@example.com commit -q -m init)
}

scratch "$work/buggy" 'package worker

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Release(ctx context.Context, rdb *redis.Client) error {
	return rdb.Del(ctx, "lock:job").Err()
}'

scratch "$work/clean" 'package worker

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func Forget(ctx context.Context, rdb *redis.Client) error {
	return rdb.Del(ctx, "cache:job").Err()
}'

start=$(date +%s)
if (cd "$work/buggy" && pre-commit try-repo "$repo" locklint --all-files) > "$work/buggy.out" 2>&1; then
  cat "$work/buggy.out"; echo "precommit/test.sh: the hook passed on a lock bug" >&2; exit 1
fi
grep -q 'worker.go:10:.*DEL of lock key `"lock:job"` without an owner check' "$work/buggy.out" || {
  cat "$work/buggy.out"; echo "precommit/test.sh: the hook failed without printing the finding" >&2; exit 1; }
mid=$(date +%s)
(cd "$work/clean" && pre-commit try-repo "$repo" locklint --all-files) > "$work/clean.out" 2>&1 || {
  cat "$work/clean.out"; echo "precommit/test.sh: the hook failed on clean code" >&2; exit 1; }
end=$(date +%s)
echo "precommit/test.sh: ok (buggy repo $((mid - start))s including the hook install, clean repo $((end - mid))s)"
