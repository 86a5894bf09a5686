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
// -vettool replaces go vet's default checks; run plain go vet as well.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/locklint/locklint/analyzer"
	"github.com/locklint/locklint/analyzer/lockmodel"
)

func main() {
	if servePackagesDriver() {
		return
	}
	if err := changeDir(); err != nil {
		fmt.Fprintln(os.Stderr, "locklint:", err)
		os.Exit(1)
	}
	for _, a := range os.Args[1:] {
		if a == "-version" || a == "--version" {
			fmt.Println("locklint", version())
			os.Exit(0)
		}
	}
	// The lock words belong to the shared model, which is not in the
	// analyzer list; expose its flag under a driver-level name.
	lw := lockmodel.Analyzer.Flags.Lookup("lockwords")
	flag.Var(lw.Value, "lockwords", lw.Usage)
	flag.Bool("version", false, "print the locklint version and exit")
	// The -fix, -diff and vettool modes run in multichecker, which parses
	// the command line again; -format is defined for its usage message.
	flag.String("format", "text", "output format: text, or sarif (SARIF 2.1.0 on stdout)")
	if standalone(os.Args[1:]) {
		os.Exit(runStandalone(os.Args[1:], os.Stdout, os.Stderr))
	}
	if fixRequested(os.Args[1:]) {
		hintFixModule(os.Stderr)
	}
	multichecker.Main(analyzer.Analyzers()...)
}

func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				return "devel " + s.Value
			}
		}
		return "devel"
	}
	return v
}

// changeDir handles -C dir, which, as for the go command, must come first:
// locklint then runs in dir, so that a module nested in the repository
// (locklint -C examples ./...) is linted as its own main module.
func changeDir() error {
	if len(os.Args) < 2 {
		return nil
	}
	var dir string
	switch a := os.Args[1]; {
	case a == "-C" || a == "--C":
		if len(os.Args) < 3 {
			return fmt.Errorf("-C requires a directory")
		}
		dir = os.Args[2]
		os.Args = append(os.Args[:1], os.Args[3:]...)
	case strings.HasPrefix(a, "-C=") || strings.HasPrefix(a, "--C="):
		dir = a[strings.Index(a, "=")+1:]
		os.Args = append(os.Args[:1], os.Args[2:]...)
	default:
		return nil
	}
	if err := os.Chdir(dir); err != nil {
		return fmt.Errorf("-C: %w", err)
	}
	return nil
}
