package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/locklint/locklint/analyzer"
	"github.com/locklint/locklint/analyzer/lockmodel"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// The loader of the standalone driver. multichecker type-checks every
// dependency from source as soon as one analyzer uses facts, which made
// locklint cost three times the type-checking floor. Here only the
// packages on an import path to a Redis client are loaded from source; the
// rest of the graph, the standard library included, comes from the
// compiler's export data. No fact is lost: the suite's fact types are
// exported only by packages that reach a client (lockmodel.IsClientFact,
// checked by loadMode). go vet's facts make no such promise, so with -vet
// the whole graph is loaded from source, as multichecker would.

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
		case own[a] && scopedFactsOnly(a):
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

// fromSource returns the IDs of the dependencies that are not roots and
// either can reach a Redis client or belong to the main module
// (lockmodel.MainModuleScope), and are not part of a client's module.
func fromSource(pkgs []*packages.Package, roots map[string]bool) []string {
	memo := map[*packages.Package]bool{}
	path := func(p *packages.Package) string { return p.PkgPath }
	imports := func(p *packages.Package) []*packages.Package {
		out := make([]*packages.Package, 0, len(p.Imports))
		for _, q := range p.Imports {
			out = append(out, q)
		}
		return out
	}
	visit := func(p *packages.Package) bool { return lockmodel.ReachesClient(p, path, imports, memo) }
	var ids []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		var module string
		if p.Module != nil {
			module = p.Module.Path
		}
		main := p.Module == nil || p.Module.Main
		if (visit(p) || (main && !isStd(p))) && !roots[p.ID] && !lockmodel.InClientModule(p.PkgPath, module) && p.PkgPath != "" {
			ids = append(ids, p.ID)
		}
	})
	slices.Sort(ids)
	return ids
}

// scopedFactsOnly reports whether every fact type that a and what it
// requires declare says where it can live (lockmodel.ScopedFact), within
// what clientPaths loads: a fact type that makes no such promise loads
// everything.
func scopedFactsOnly(a *analysis.Analyzer) bool {
	if slices.ContainsFunc(a.FactTypes, func(f analysis.Fact) bool { return lockmodel.ScopeOf(f) == 0 }) {
		return false
	}
	return !slices.ContainsFunc(a.Requires, func(r *analysis.Analyzer) bool { return !scopedFactsOnly(r) })
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

// isStd reports whether p is a package of the standard library, which
// go/packages lists with no module.
func isStd(p *packages.Package) bool {
	return p.Module == nil && !strings.Contains(strings.Split(p.PkgPath, "/")[0], ".")
}
