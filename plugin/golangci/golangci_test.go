package golangci

import (
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzer"
	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/passes/unconditionaldel"
)

// build constructs the plugin from conf as golangci-lint hands it over:
// decoded YAML, so maps of any.
func build(t *testing.T, conf any) ([]*analysis.Analyzer, error) {
	t.Helper()
	t.Cleanup(func() { New(nil) }) // leave the flags at their defaults
	p, err := New(conf)
	if err != nil {
		return nil, err
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q", p.GetLoadMode())
	}
	return p.BuildAnalyzers()
}

func flagValue(a *analysis.Analyzer, name string) string { return a.Flags.Lookup(name).Value.String() }

func TestRegistered(t *testing.T) {
	if _, err := register.GetPlugin("locklint"); err != nil {
		t.Fatal(err)
	}
}

func TestDefaultsRunTheWholeSuite(t *testing.T) {
	for _, conf := range []any{nil, map[string]any{}} {
		as, err := build(t, conf)
		if err != nil {
			t.Fatal(err)
		}
		if len(as) != len(analyzer.Analyzers()) {
			t.Errorf("%v: %d analyzers, want the suite's %d", conf, len(as), len(analyzer.Analyzers()))
		}
	}
}

func TestUnknownKeyIsAnError(t *testing.T) {
	_, err := build(t, map[string]any{"lockword": []any{"lock"}})
	if err == nil || !strings.Contains(err.Error(), "lockword") {
		t.Errorf("misspelt key: err = %v", err)
	}
}

func TestUnknownAnalyzerIsAnError(t *testing.T) {
	for _, key := range []string{"enable", "disable"} {
		_, err := build(t, map[string]any{key: []any{"setnxexpir"}})
		if err == nil || !strings.Contains(err.Error(), `unknown analyzer "setnxexpir"`) {
			t.Errorf("%s: err = %v", key, err)
		}
	}
}

func TestEnableDisable(t *testing.T) {
	as, err := build(t, map[string]any{"enable": []any{"setnxexpire", "unconditionaldel"}, "disable": []any{"unconditionaldel"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || as[0].Name != "setnxexpire" {
		t.Errorf("got %v, want [setnxexpire]", as)
	}
	as, err = build(t, map[string]any{"disable": []any{"unconditionaldel"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range as {
		if a.Name == "unconditionaldel" {
			t.Errorf("disabled analyzer still runs")
		}
	}
	if len(as) != len(analyzer.Analyzers())-1 {
		t.Errorf("disable one: %d analyzers", len(as))
	}
	if _, err := build(t, map[string]any{"enable": []any{"setnxexpire"}, "disable": []any{"setnxexpire"}}); err == nil {
		t.Errorf("no analyzer left: want an error")
	}
}

func TestNamedSettingsSetFlags(t *testing.T) {
	def := flagValue(lockmodel.Analyzer, "lockwords")
	if _, err := build(t, map[string]any{"lockwords": []any{"mutex"}, "tests": true}); err != nil {
		t.Fatal(err)
	}
	if got := flagValue(lockmodel.Analyzer, "lockwords"); got == def || !strings.Contains(got, "mutex") || strings.Contains(got, "lease") {
		t.Errorf("lockwords = %q after lockwords: [mutex] (default %q)", got, def)
	}
	var withTests int
	for _, a := range analyzer.Analyzers() {
		if a.Flags.Lookup("tests") == nil {
			continue
		}
		withTests++
		if got := flagValue(a, "tests"); got != "true" {
			t.Errorf("%s.tests = %q after tests: true", a.Name, got)
		}
	}
	if withTests < 2 {
		t.Errorf("only %d analyzers have a tests flag", withTests)
	}
	// A later New starts again from the defaults.
	if _, err := build(t, nil); err != nil {
		t.Fatal(err)
	}
	if got := flagValue(lockmodel.Analyzer, "lockwords"); got != def {
		t.Errorf("lockwords = %q after reset, want %q", got, def)
	}
	if got := flagValue(unconditionaldel.Analyzer, "tests"); got != "false" {
		t.Errorf("unconditionaldel.tests = %q after reset", got)
	}
}

func TestGenericFlags(t *testing.T) {
	// golangci-lint's loader turns "a.b" keys into nested maps; both work.
	for _, flags := range []map[string]any{
		{"unconditionaldel.tests": "true", "lockmodel.lockwords": "+guard"},
		{"unconditionaldel": map[string]any{"tests": true}, "lockmodel": map[string]any{"lockwords": []any{"+guard"}}},
	} {
		if _, err := build(t, map[string]any{"flags": flags}); err != nil {
			t.Fatalf("%v: %v", flags, err)
		}
		if got := flagValue(unconditionaldel.Analyzer, "tests"); got != "true" {
			t.Errorf("%v: unconditionaldel.tests = %q", flags, got)
		}
		if got := flagValue(lockmodel.Analyzer, "lockwords"); !strings.Contains(got, "guard") || !strings.Contains(got, "lease") {
			t.Errorf("%v: lockwords = %q", flags, got)
		}
	}
	for _, bad := range []map[string]any{
		{"unconditionaldel.test": "true"},
		{"nosuch.tests": "true"},
		{"tests": "true"},
		{"unconditionaldel.tests": "maybe"},
	} {
		if _, err := build(t, map[string]any{"flags": bad}); err == nil {
			t.Errorf("%v: want an error", bad)
		}
	}
}
