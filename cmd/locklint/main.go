// Command locklint finds Redis distributed-lock misuse in Go code.
//
// Standalone:
//
//	locklint [-fix] [-diff] [-json] [-format=sarif] [-lockwords=...] ./...
//
// exits 3 when it reports findings. As a vet tool:
//
//	go vet -vettool=$(which locklint) ./...
//
// -vettool replaces go vet's default checks: run plain go vet as well, or
// use locklint-vet, which runs go vet's suite beside locklint's analyzers.
package main

import "github.com/locklint/locklint/internal/cli"

func main() { cli.Main(nil) }
