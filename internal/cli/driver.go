package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/locklint/locklint/analyzer/lockmodel"
)

// The standalone driver. It runs text, -json and -format=sarif itself,
// because it loads less than multichecker does: multichecker type-checks
// every dependency from source as soon as one analyzer uses facts
// (unboundedretry does), which made locklint cost three times the
// type-checking floor. Here only the packages on an import path to a
// Redis client are loaded from source; the rest of the graph, the
// standard library included, comes from the compiler's export data. No
// fact is lost: a package that cannot reach a client has none. That
// does not hold for go vet's facts, so with -vet the whole graph is
// loaded from source, as multichecker would (see loadMode).
//
// Everything else (vettool mode, -fix, -diff, -flags, -V, -debug, -trace,
// -help) stays with multichecker.

// options are the command-line settings of one standalone run.
type options struct {
	fs         *flag.FlagSet
	format     string
	category   string
	json       bool
	context    int
	tests      bool
	tags       string
	cpuProfile string
	memProfile string
	enabled    map[*analysis.Analyzer]*triState
}

func newOptions(suite []*analysis.Analyzer, stderr io.Writer) *options {
	o := &options{fs: flag.NewFlagSet("locklint", flag.ContinueOnError), enabled: map[*analysis.Analyzer]*triState{}}
	fs := o.fs
	fs.SetOutput(stderr)
	fs.StringVar(&o.format, "format", "text", "output format: text, or sarif (SARIF 2.1.0 on stdout)")
	fs.StringVar(&o.category, "sarif-category", defaultCategory, sarifCategoryUsage)
	fs.BoolVar(&o.json, "json", false, "emit JSON output")
	fs.IntVar(&o.context, "c", -1, "display offending line with this many lines of context")
	fs.BoolVar(&o.tests, "test", true, "indicates whether test files should be analyzed, too")
	fs.StringVar(&o.tags, "tags", "", "comma-separated build tags")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write CPU profile to this file")
	fs.StringVar(&o.memProfile, "memprofile", "", "write memory profile to this file")
	fs.Bool("version", false, "print the locklint version and exit")
	fs.Bool("vet", vetSuite != nil, vetUsage)
	lw := lockmodel.Analyzer.Flags.Lookup("lockwords")
	fs.Var(lw.Value, "lockwords", lw.Usage)
	for _, a := range suite {
		t := new(triState)
		o.enabled[a] = t
		fs.Var(t, a.Name, "enable "+a.Name+" analysis")
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	return o
}

// standalone reports whether this driver handles the command line: every
// flag is one it defines, and no argument is a vet config file. It only
// looks at the flag names, so nothing is set twice when multichecker
// takes over.
func standalone(args []string) bool {
	fs := newOptions(suiteFor(args), io.Discard).fs
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasSuffix(a, ".cfg") {
			return false
		}
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" {
			// Flags end here, as in package flag; the rest are patterns.
			return !slices.ContainsFunc(args[i:], func(s string) bool { return strings.HasSuffix(s, ".cfg") })
		}
		name, _, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			return false
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) {
			i++ // the value is the next argument
		}
	}
	return true
}

// runStandalone runs the suite over the packages named in args and
// returns the exit status: 3 when there are findings (text and SARIF), 1
// on load or analysis errors, 0 otherwise. As with multichecker, -json
// exits 0 with findings.
func runStandalone(args []string, stdout, stderr io.Writer) int {
	suite := suiteFor(args)
	o := newOptions(suite, stderr)
	if err := o.fs.Parse(args); err != nil {
		return 1
	}
	if o.format != "text" && o.format != "sarif" {
		fmt.Fprintf(stderr, "locklint: unknown -format %q (want text or sarif)\n", o.format)
		return 1
	}
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "locklint: %v\n", err)
			return 1
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "locklint: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	if o.memProfile != "" {
		defer func() {
			f, err := os.Create(o.memProfile)
			if err == nil {
				runtime.GC()
				err = pprof.WriteHeapProfile(f)
				f.Close()
			}
			if err != nil {
				fmt.Fprintf(stderr, "locklint: %v\n", err)
			}
		}()
	}

	// As in multichecker: naming analyzers with -NAME runs only those;
	// -NAME=false runs all but those.
	var anyTrue bool
	for _, t := range o.enabled {
		anyTrue = anyTrue || *t == setTrue
	}
	var run []*analysis.Analyzer
	for _, a := range suite {
		t := *o.enabled[a]
		if (anyTrue && t == setTrue) || (!anyTrue && t != setFalse) {
			run = append(run, a)
		}
	}

	patterns := o.fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	cfg := &packages.Config{Mode: packages.LoadSyntax | packages.NeedModule, Tests: o.tests}
	if o.tags != "" {
		cfg.BuildFlags = []string{"-tags=" + o.tags}
	}
	pkgs, err := load(cfg, patterns, loadMode(run))
	if err != nil {
		fmt.Fprintf(stderr, "locklint: %v\n", err)
		return 1
	}
	status := 0
	if packages.PrintErrors(pkgs) > 0 {
		status = 1
	}
	g, err := checker.Analyze(run, pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "locklint: %v\n", err)
		return 1
	}
	var findings int
	for act := range g.All() {
		if act.Err != nil {
			if act.IsRoot {
				fmt.Fprintf(stderr, "locklint: %s: %v\n", act, act.Err)
			}
			status = 1
		} else if act.IsRoot {
			findings += len(act.Diagnostics)
		}
	}

	switch {
	case o.format == "sarif":
		wd, _ := os.Getwd()
		log, n := buildSARIF(g, suite, pkgs, wd, o.category)
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(log); err != nil {
			fmt.Fprintf(stderr, "locklint: %v\n", err)
			return 1
		}
		findings = n
	case o.json:
		if err := g.PrintJSON(stdout); err != nil {
			return 1
		}
		return status
	default:
		if err := g.PrintText(stderr, o.context); err != nil {
			return 1
		}
	}
	if status == 0 && findings > 0 {
		status = 3
	}
	return status
}

type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (t *triState) String() string   { return strconv.FormatBool(*t == setTrue) }
func (t *triState) IsBoolFlag() bool { return true }
func (t *triState) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*t = setFalse
	if b {
		*t = setTrue
	}
	return nil
}
