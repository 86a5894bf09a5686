// Command noop is the baseline for locklint's cost: the same multichecker
// driver as cmd/locklint, with one analyzer whose Run returns at once, so
// what it costs is loading, type-checking and the driver itself.
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"
)

// salt is set with -ldflags=-X main.salt=... to give each build a new
// content hash: go vet caches results by the vet tool's ID, and a fresh ID
// forces every package to be vetted again.
var salt string

var noop = &analysis.Analyzer{
	Name: "noop",
	Doc:  "noop: report nothing (the driver-cost baseline for locklint)",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}

func main() {
	_ = salt
	multichecker.Main(noop)
}
