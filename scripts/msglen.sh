#!/usr/bin/env bash
# Lengths of the diagnostic messages locklint prints: runs it with -json
# over the testdata module (with every analyzer flag that widens what is
# reported, so that each fixture's findings count) and over the examples
# module (as users run it), and summarises the messages per analyzer.
# usage: scripts/msglen.sh [-v]   (-v lists every message, longest first)
set -euo pipefail
cd "$(dirname "$0")/.."
tool=$(mktemp -d)/locklint
go build -o "$tool" ./cmd/locklint
wide=(-unconditionaldel.tests -plainpexpire.tests -constanttoken.tests -unguardedscript.tests -crossslot.anyclient)
{
  (cd testdata && "$tool" -json "${wide[@]}" ./...)
  (cd examples && "$tool" -json ./...)
} | go run ./internal/msglen "$@"
