#!/usr/bin/env bash
# Releases the lock library's modules at one version:
#
#   scripts/release.sh [-n] vX.Y.Z
#
# Every module of analyzer/fix that go.work gives a version is released:
# its go.mod is made to require the new version of the others, go.work to
# replace that version by the tree, the consumer tests (module graphs, and
# a fresh service built from a file proxy of the modules) run, the change is
# committed, and each module is tagged (analyzer/fix/lock/vX.Y.Z, ...) after
# the modules it requires. -n prints the tags in order and changes nothing.
# Pushing the tags is left to the caller; the command is printed.
set -euo pipefail
dry=
if [ "${1:-}" = -n ]; then dry=1; shift; fi
version=${1:-}
if ! [[ $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "usage: scripts/release.sh [-n] vX.Y.Z" >&2
  exit 2
fi
cd "$(dirname "$0")/../analyzer/fix"

# path dir, one module a line, from go.work's replace block.
modules=$(sed -n 's#^[[:space:]]*\(github\.com/locklint/locklint/analyzer/fix[^ ]*\) v[^ ]* => \(.*\)$#\1 \2#p' go.work)
[ -n "$modules" ] || { echo "release: go.work names no module" >&2; exit 1; }

# tag prints a module's tag: its directory from the repository root.
tag() {
  local dir=${1#./}
  dir=${dir%/}
  if [ -z "$dir" ] || [ "$dir" = . ]; then echo "analyzer/fix/$version"; else echo "analyzer/fix/$dir/$version"; fi
}

# order lists the modules' directories, each after the modules it requires.
order() {
  local done=" " progress left path dir dep ok
  left=$modules
  while [ -n "$left" ]; do
    progress=
    local next=""
    while read -r path dir; do
      [ -n "$path" ] || continue
      ok=1
      while read -r dep _; do
        [ -n "$dep" ] && [ "$dep" != "$path" ] || continue
        if grep -q "^[[:space:]]*$dep v" "$dir/go.mod" && [[ $done != *" $dep "* ]]; then ok=; fi
      done <<< "$modules"
      if [ -n "$ok" ]; then echo "$dir"; done="$done$path "; progress=1
      else next="$next$path $dir"$'\n'; fi
    done <<< "$left"
    left=${next%$'\n'}
    [ -n "$progress" ] || { echo "release: the modules require each other in a cycle" >&2; exit 1; }
  done
}

dirs=$(order)
if [ -n "$dry" ]; then
  for d in $dirs; do tag "$d"; done
  exit 0
fi

if ! git diff --quiet || ! git diff --cached --quiet; then
  echo "release: commit or stash your changes first" >&2
  exit 1
fi
for existing in $dirs; do
  if git rev-parse -q --verify "refs/tags/$(tag "$existing")" >/dev/null; then
    echo "release: $(tag "$existing") exists" >&2
    exit 1
  fi
done

# Require the new version everywhere, and let the workspace build it.
while read -r path _; do
  for mod in */go.mod go.mod internal/behaviour/go.mod ../../examples/go.mod ../../bench/lockbench/go.mod ../../testdata/go.mod; do
    sed -i "s#^\([[:space:]]*\)$path v[^ ]*#\1$path $version#" "$mod"
  done
  sed -i "s#^\([[:space:]]*\)$path v[^ ]* =>#\1$path $version =>#" go.work
done <<< "$modules"

(cd internal/behaviour && go test -count=1 ./modules/)
git commit -q -am "lock library: release $version"
tags=()
for d in $dirs; do
  t=$(tag "$d")
  git tag -a "$t" -m "$t"
  tags+=("$t")
done
echo "tagged ${tags[*]}"
echo "push with: git push origin HEAD ${tags[*]}"
