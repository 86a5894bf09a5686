// Package golangci is the golangci-lint v2 module plugin for locklint.
//
// A custom golangci-lint binary that imports this package (blank import,
// or the module listed in .custom-gcl.yml) gets a linter named locklint
// that runs analyzer.Analyzers(). Its settings, all optional:
//
//	enable:    [setnxexpire]          # run only these analyzers
//	disable:   [unconditionaldel]     # run all but these
//	lockwords: [lock, mutex, +guard]  # same syntax as locklint -lockwords
//	tests:     true                   # every analyzer's -tests flag
//	flags:                            # any analyzer flag, by name
//	  unconditionaldel.tests: "true"
//
// Unknown keys, analyzer names and flags are errors, so a typo in
// .golangci.yml fails the run instead of silently linting with defaults.
package golangci

import (
	"flag"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzer"
	"github.com/locklint/locklint/analyzer/lockmodel"
)

func init() {
	register.Plugin("locklint", New)
}

// Settings is the plugin's block under linters.settings.custom.locklint.settings.
type Settings struct {
	Enable    []string `json:"enable"`
	Disable   []string `json:"disable"`
	Lockwords []string `json:"lockwords"`
	Tests     *bool    `json:"tests"`
	// Flags maps "<analyzer>.<flag>" to a value. golangci-lint's config
	// loader splits dotted keys into nested maps, so both the flat and
	// the nested form are accepted.
	Flags map[string]any `json:"flags"`
}

// Plugin is the locklint linter plugin.
type Plugin struct {
	analyzers []*analysis.Analyzer
}

var _ register.LinterPlugin = (*Plugin)(nil)

// New decodes and applies the settings. Analyzer flags are package-level
// state, so every call first resets them to their defaults: the result
// depends on conf alone.
func New(conf any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		return nil, fmt.Errorf("locklint settings: %w", err)
	}
	as, err := apply(s)
	if err != nil {
		return nil, fmt.Errorf("locklint settings: %w", err)
	}
	return &Plugin{analyzers: as}, nil
}

// BuildAnalyzers returns the analyzers the settings selected.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) { return p.analyzers, nil }

// GetLoadMode asks for type information: every pass resolves Redis calls
// through the type checker.
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

func apply(s Settings) ([]*analysis.Analyzer, error) {
	suite := analyzer.Analyzers()
	byName := map[string]*analysis.Analyzer{}
	for _, a := range suite {
		byName[a.Name] = a
	}
	// Flags may live on required analyzers too (lockmodel's lockwords).
	withFlags := map[string]*analysis.Analyzer{}
	var walk func(a *analysis.Analyzer)
	walk = func(a *analysis.Analyzer) {
		if withFlags[a.Name] != nil {
			return
		}
		withFlags[a.Name] = a
		for _, r := range a.Requires {
			walk(r)
		}
	}
	for _, a := range suite {
		walk(a)
	}
	for _, a := range withFlags {
		var err error
		a.Flags.VisitAll(func(f *flag.Flag) {
			if e := f.Value.Set(f.DefValue); e != nil && err == nil {
				err = fmt.Errorf("reset %s.%s: %w", a.Name, f.Name, e)
			}
		})
		if err != nil {
			return nil, err
		}
	}

	for _, n := range append(slices.Clone(s.Enable), s.Disable...) {
		if byName[n] == nil {
			return nil, fmt.Errorf("unknown analyzer %q (have %s)", n, strings.Join(names(suite), ", "))
		}
	}
	var out []*analysis.Analyzer
	for _, a := range suite {
		if (len(s.Enable) == 0 || slices.Contains(s.Enable, a.Name)) && !slices.Contains(s.Disable, a.Name) {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("enable/disable leave no analyzer to run")
	}

	set := func(key, value string) error {
		an, fl, ok := strings.Cut(key, ".")
		a := withFlags[an]
		if !ok || a == nil {
			return fmt.Errorf("flag %q: want <analyzer>.<flag>, analyzer one of %s", key, strings.Join(names(mapValues(withFlags)), ", "))
		}
		if a.Flags.Lookup(fl) == nil {
			return fmt.Errorf("flag %q: analyzer %s has no flag %q", key, an, fl)
		}
		if err := a.Flags.Set(fl, value); err != nil {
			return fmt.Errorf("flag %q: %w", key, err)
		}
		return nil
	}
	flat := map[string]string{}
	if err := flatten("", s.Flags, flat); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(flat))
	for k := range flat {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := set(k, flat[k]); err != nil {
			return nil, err
		}
	}
	// The named settings win over the generic map.
	if s.Lockwords != nil {
		if err := set(lockmodel.Analyzer.Name+".lockwords", strings.Join(s.Lockwords, ",")); err != nil {
			return nil, err
		}
	}
	if s.Tests != nil {
		// Every analyzer that skips _test.go files by default has a tests
		// flag; the setting turns them all on or off together.
		for _, a := range suite {
			if a.Flags.Lookup("tests") == nil {
				continue
			}
			if err := set(a.Name+".tests", fmt.Sprint(*s.Tests)); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func flatten(prefix string, m map[string]any, out map[string]string) error {
	for k, v := range m {
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		switch v := v.(type) {
		case map[string]any:
			if err := flatten(key, v, out); err != nil {
				return err
			}
		case string, bool, float64, int, int64:
			out[key] = fmt.Sprint(v)
		case []any:
			parts := make([]string, len(v))
			for i, e := range v {
				parts[i] = fmt.Sprint(e)
			}
			out[key] = strings.Join(parts, ",")
		default:
			return fmt.Errorf("flag %q: unsupported value %v (%T)", key, v, v)
		}
	}
	return nil
}

func names(as []*analysis.Analyzer) []string {
	var ns []string
	for _, a := range as {
		ns = append(ns, a.Name)
	}
	sort.Strings(ns)
	return ns
}

func mapValues(m map[string]*analysis.Analyzer) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, a := range m {
		out = append(out, a)
	}
	return out
}
