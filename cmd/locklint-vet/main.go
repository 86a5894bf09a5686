// Command locklint-vet is locklint with go vet's default analyzers beside
// its own, so that one run is a superset of go vet and both suites share
// one load of each package:
//
//	go vet -vettool=$(which locklint-vet) ./...
//	locklint-vet ./...
//
// -vet=false leaves go vet's analyzers out. Flags are locklint's, and go
// vet's analyzers' (-printf.funcs=...).
package main

import (
	"golang.org/x/tools/go/analysis/suite/vet"

	"github.com/locklint/locklint/internal/cli"
)

func main() { cli.Main(vet.Suite) }
