package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/locklint/locklint/analyzer"
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
	fs.BoolVar(&o.json, "json", false, "emit JSON output")
	fs.IntVar(&o.context, "c", -1, "display offending line with this many lines of context")
	fs.BoolVar(&o.tests, "test", true, "indicates whether test files should be analyzed, too")
	fs.StringVar(&o.tags, "tags", "", "comma-separated build tags")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write CPU profile to this file")
	fs.StringVar(&o.memProfile, "memprofile", "", "write memory profile to this file")
	fs.Bool("version", false, "print the locklint version and exit")
	fs.Bool("vet", false, vetUsage)
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
		log, n := buildSARIF(g, suite, pkgs, wd)
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

// How much of the dependency graph load type-checks from source.
const (
	rootsOnly     = iota // no analyzer uses facts
	clientPaths          // locklint's facts: the packages that reach a Redis client
	allFromSource        // any other analyzer's facts (go vet's, with -vet)
)

// loadMode says what the analyzers in run need from source. locklint's
// facts only live in packages that can reach a Redis client; go vet's
// (printf wrappers, functions that never return) can live in any package,
// the standard library included, as they do under go vet.
func loadMode(run []*analysis.Analyzer) int {
	own := map[*analysis.Analyzer]bool{}
	for _, a := range analyzer.Analyzers() {
		own[a] = true
	}
	mode := rootsOnly
	for _, a := range run {
		switch {
		case !usesFacts([]*analysis.Analyzer{a}):
		case own[a]:
			mode = max(mode, clientPaths)
		default:
			return allFromSource
		}
	}
	return mode
}

// load loads the packages matched by patterns, type-checked from source.
// With clientPaths, the packages on an import path from them to a Redis
// client are type-checked from source too, so that the fact-producing
// passes see their syntax; everything else comes from export data. With
// allFromSource, the whole graph is, as multichecker does it.
//
// That takes one go list: a first load lists the whole graph with export
// data, and a second one type-checks it through this very executable as
// its GOPACKAGESDRIVER, which answers with that graph and with the wanted
// packages as roots. go/packages type-checks the roots from source and
// the rest from export data; no package is listed twice, and the extra
// roots' tests, which go list -test would add, are never loaded.
func load(cfg *packages.Config, patterns []string, mode int) ([]*packages.Package, error) {
	if mode != clientPaths {
		if mode == allFromSource {
			all := *cfg
			all.Mode |= packages.LoadAllSyntax
			cfg = &all
		}
		pkgs, err := packages.Load(cfg, patterns...)
		if err == nil && len(pkgs) == 0 {
			err = fmt.Errorf("%s matched no packages", strings.Join(patterns, " "))
		}
		return pkgs, err
	}
	list := *cfg
	list.Mode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
		packages.NeedDeps | packages.NeedExportFile | packages.NeedModule | packages.NeedEmbedFiles | packages.NeedEmbedPatterns
	listed, err := packages.Load(&list, patterns...)
	if err != nil {
		return nil, err
	}
	if len(listed) == 0 {
		return nil, fmt.Errorf("%s matched no packages", strings.Join(patterns, " "))
	}
	roots := map[string]bool{}
	env := goEnv(cfg, "GOARCH", "GOVERSION")
	resp := &packages.DriverResponse{Compiler: "gc", Arch: env[0]}
	for _, p := range listed {
		roots[p.ID] = true
		resp.Roots = append(resp.Roots, p.ID)
	}
	resp.Roots = append(resp.Roots, fromSource(listed, roots)...)
	fmt.Sscanf(env[1], "go1.%d", &resp.GoVersion)
	packages.Visit(listed, nil, func(p *packages.Package) { resp.Packages = append(resp.Packages, p) })

	f, err := os.CreateTemp("", "locklint-packages-*.json")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	err = json.NewEncoder(f).Encode(resp)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	check := *cfg
	base := cfg.Env
	if base == nil {
		base = os.Environ()
	}
	check.Env = append(slices.Clone(base), "GOPACKAGESDRIVER="+self, responseEnv+"="+f.Name())
	pkgs, err := packages.Load(&check, patterns...)
	if err != nil {
		return nil, err
	}
	// The driver protocol carries no module information; the analyzers
	// see it through the checker (analysis.Pass.Module), so put it back.
	modules := map[string]*packages.Module{}
	for _, p := range resp.Packages {
		modules[p.ID] = p.Module
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Module == nil {
			p.Module = modules[p.ID]
		}
	})
	// The extra roots were roots only to be type-checked from source; they
	// are analysed as dependencies, not reported on.
	pkgs = slices.DeleteFunc(pkgs, func(p *packages.Package) bool { return !roots[p.ID] })
	return pkgs, nil
}

// responseEnv names the file that this executable, run by go/packages as
// its GOPACKAGESDRIVER, answers with (see load).
const responseEnv = "LOCKLINT_PACKAGES_RESPONSE"

// servePackagesDriver answers a go/packages driver request with the
// prepared response, if this process was started as the driver.
func servePackagesDriver() bool {
	name := os.Getenv(responseEnv)
	if name == "" {
		return false
	}
	data, err := os.ReadFile(name)
	if err != nil {
		fmt.Fprintf(os.Stderr, "locklint: packages driver: %v\n", err)
		os.Exit(1)
	}
	os.Stdout.Write(data)
	return true
}

// goEnv returns go env variables in cfg's environment and directory, ""
// for each when go env fails.
func goEnv(cfg *packages.Config, names ...string) []string {
	cmd := exec.Command("go", append([]string{"env"}, names...)...)
	cmd.Dir = cfg.Dir
	cmd.Env = cfg.Env
	out, _ := cmd.Output()
	vals := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(vals) != len(names) {
		return make([]string, len(names))
	}
	return vals
}

// fromSource returns the IDs of the dependencies that are not roots, can
// reach a Redis client, and are not part of a client's module.
func fromSource(pkgs []*packages.Package, roots map[string]bool) []string {
	reach := map[*packages.Package]bool{}
	var visit func(p *packages.Package) bool
	visit = func(p *packages.Package) bool {
		if r, ok := reach[p]; ok {
			return r
		}
		reach[p] = false // breaks cycles in a broken graph
		r := lockmodel.IsClientPath(p.PkgPath)
		for _, q := range p.Imports {
			if visit(q) {
				r = true
			}
		}
		reach[p] = r
		return r
	}
	var ids []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		var module string
		if p.Module != nil {
			module = p.Module.Path
		}
		if visit(p) && !roots[p.ID] && !lockmodel.InClientModule(p.PkgPath, module) && p.PkgPath != "" {
			ids = append(ids, p.ID)
		}
	})
	slices.Sort(ids)
	return ids
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

func usesFacts(as []*analysis.Analyzer) bool {
	seen := map[*analysis.Analyzer]bool{}
	var walk func(a *analysis.Analyzer) bool
	walk = func(a *analysis.Analyzer) bool {
		if seen[a] {
			return false
		}
		seen[a] = true
		return len(a.FactTypes) > 0 || slices.ContainsFunc(a.Requires, walk)
	}
	return slices.ContainsFunc(as, walk)
}
