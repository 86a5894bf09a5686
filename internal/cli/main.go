// Package cli is the locklint command: the standalone driver, the vet
// tool protocol, SARIF output and -fix. Two commands run it:
// cmd/locklint with locklint's analyzers alone, and cmd/locklint-vet with
// go vet's suite beside them. They are two binaries because a binary
// that links go vet's analyzers starts about 3 ms slower (their package
// initialisation, x/tools' table of the standard library's symbols most
// of all), and go vet starts the tool once for every package it vets,
// dependencies included.
package cli

import (
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/locklint/locklint/analyzer"
	"github.com/locklint/locklint/analyzer/lockmodel"
)

// vetSuite is go vet's suite when the command links it (locklint-vet),
// nil otherwise; with it, -vet is on unless -vet=false.
var vetSuite []*analysis.Analyzer

// VetCommand is the command that has go vet's suite, named where -vet is
// asked of the one that has not.
const VetCommand = "github.com/locklint/locklint/cmd/locklint-vet"

// Main runs the command. vet is go vet's suite, or nil for a command
// without it; Main does not return.
func Main(vet []*analysis.Analyzer) {
	vetSuite = vet
	main()
}

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
	// go vet accepts every flag that -flags lists, go vet's analyzers'
	// included, and runs the tool once per package: say what is missing
	// in one line rather than print the usage for each package.
	if vetSuite == nil && vetRequested(os.Args[1:]) {
		fmt.Fprintf(os.Stderr, "locklint: -vet runs go vet's analyzers, which this command leaves out so that go vet starts it faster; use locklint-vet (go install %s@latest)\n", VetCommand)
		os.Exit(1)
	}
	if name := vetFlagWithoutVet(os.Args[1:]); name != "" {
		fmt.Fprintf(os.Stderr, "locklint: -%s is a flag of go vet's analyzers, which run only with -vet\n", name)
		os.Exit(1)
	}
	// The lock words belong to the shared model, which is not in the
	// analyzer list; expose its flag under a driver-level name.
	lw := lockmodel.Analyzer.Flags.Lookup("lockwords")
	flag.Var(lw.Value, "lockwords", lw.Usage)
	flag.Bool("version", false, "print the locklint version and exit")
	// The -fix, -diff and vettool modes run in multichecker, which parses
	// the command line again; -format is defined for its usage message.
	flag.String("format", "text", "output format: text, or sarif (SARIF 2.1.0 on stdout)")
	flag.String("sarif-category", defaultCategory, sarifCategoryUsage)
	// -vet is read by suiteFor; defining it lets multichecker parse it
	// and list it for go vet.
	flag.Bool("vet", vetSuite != nil, vetUsage)
	if standalone(os.Args[1:]) {
		os.Exit(runStandalone(os.Args[1:], os.Stdout, os.Stderr))
	}
	if fixRequested(os.Args[1:]) {
		hintFixModule(os.Stderr)
	}
	suite := suiteFor(os.Args[1:])
	if slices.Contains(os.Args[1:], "-flags") && vetSuite != nil && !vetRequested(os.Args[1:]) {
		// go vet and go fix ask for the flags once, without the rest of
		// the command line; list go vet's analyzers too, so that they
		// accept -vet -printf.funcs=... and pass it on.
		suite = withVet(suite)
	}
	multichecker.Main(suite...)
}

const vetUsage = "also run go vet's default analyzers, so that one run is a superset of go vet"

// suiteFor returns the analyzers a command line runs: locklint's, and
// with -vet go vet's as well. It has to be decided before any flag is
// parsed, because multichecker defines one flag per analyzer.
func suiteFor(args []string) []*analysis.Analyzer {
	suite := analyzer.Analyzers()
	if vetRequested(args) {
		suite = withVet(suite)
	}
	return suite
}

// vetRequested reports whether args set -vet. Package patterns and the
// vet config file never start with a dash, so the position does not matter.
func vetRequested(args []string) bool {
	on := vetSuite != nil
	for _, a := range args {
		if a == "--" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "vet" {
			continue
		}
		on = true
		if hasValue {
			on, _ = strconv.ParseBool(value)
		}
	}
	return on
}

// vetFlagWithoutVet returns the first flag in args that names one of go
// vet's analyzers (-printf, -printf.funcs=...) when -vet is not set, and
// "" otherwise.
func vetFlagWithoutVet(args []string) string {
	if vetRequested(args) {
		return ""
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		analyzerName, _, _ := strings.Cut(name, ".")
		if slices.ContainsFunc(vetSuite, func(v *analysis.Analyzer) bool { return v.Name == analyzerName }) {
			return name
		}
	}
	return ""
}

// withVet appends go vet's default suite, as x/tools exports it for
// cmd/vet, to suite.
func withVet(suite []*analysis.Analyzer) []*analysis.Analyzer {
	return append(slices.Clip(suite), vetSuite...)
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
