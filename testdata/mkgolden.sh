#!/usr/bin/env bash
# Regenerates the .golden files of one testdata package by applying one
# analyzer's suggested fixes to a copy. Review the diff before committing.
# usage: testdata/mkgolden.sh <analyzer> <package dir relative to testdata>
set -euo pipefail
cd "$(dirname "$0")"
tool=$(mktemp -d)/locklint
(cd .. && go build -o "$tool" ./cmd/locklint)
dir=$2
backup=$(mktemp -d)
cp "$dir"/*.go "$backup"/
"$tool" "-$1" -fix "./$dir" >/dev/null 2>&1 || true
for f in "$dir"/*.go; do
  if ! cmp -s "$f" "$backup/$(basename "$f")"; then
    cp "$f" "$f.golden"
    cp "$backup/$(basename "$f")" "$f"
    echo "wrote $f.golden"
  fi
done
