package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/printf"
	"golang.org/x/tools/go/analysis/suite/vet"
	"golang.org/x/tools/go/packages"

	"github.com/locklint/locklint/analyzer"
	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/setnxexpire"
)

// asCommand makes the test run as the command whose go vet suite is vet
// (nil: locklint; vet.Suite: locklint-vet).
func asCommand(t *testing.T, vet []*analysis.Analyzer) {
	old := vetSuite
	vetSuite = vet
	t.Cleanup(func() { vetSuite = old })
}

// TestRouting runs as locklint-vet, whose flags are a superset.
func TestRouting(t *testing.T) {
	asCommand(t, vet.Suite)
	for _, tc := range []struct {
		args []string
		own  bool
	}{
		{[]string{"./..."}, true},
		{[]string{"-json", "./..."}, true},
		{[]string{"--format=sarif", "-test=false", "./..."}, true},
		{[]string{"-format", "sarif", "./..."}, true},
		{[]string{"-tags", "integration", "-lockwords", "+guard", "./..."}, true},
		{[]string{"-unconditionaldel", "-unconditionaldel.tests", "-c", "2", "./..."}, true},
		{[]string{"-cpuprofile", "cpu.out", "./x"}, true},
		{[]string{"-vet", "-printf.funcs=Logf", "./..."}, true},
		{[]string{"-printf.funcs=Logf", "./..."}, true},
		// go vet's analyzers are flags only with -vet, which is on unless
		// -vet=false.
		{[]string{"-vet=false", "-printf", "./..."}, false},
		{[]string{"-vet", "-fix", "./..."}, false},
		{[]string{"-fix", "./..."}, false},
		{[]string{"-json", "-diff", "./..."}, false},
		{[]string{"-flags"}, false},
		{[]string{"-V=full"}, false},
		{[]string{"-debug=p", "./..."}, false},
		{[]string{"-h"}, false},
		{[]string{"-no-such-flag", "./..."}, false},
		{[]string{"/tmp/go-build1/vet.cfg"}, false},
		{[]string{"-json", "--", "vet.cfg"}, false},
	} {
		if got := standalone(tc.args); got != tc.own {
			t.Errorf("standalone(%q) = %v, want %v", tc.args, got, tc.own)
		}
	}
}

// TestVetRequested: -vet is off in locklint unless set (and then an
// error), on in locklint-vet unless -vet=false.
func TestVetRequested(t *testing.T) {
	for _, tc := range []struct {
		args          []string
		locklint, vet bool
	}{
		{[]string{"./..."}, false, true},
		{[]string{"-vet", "./..."}, true, true},
		{[]string{"--vet", "-json", "vet.cfg"}, true, true},
		{[]string{"-vet=true", "-vet=false", "./..."}, false, false},
		{[]string{"-vet=1"}, true, true},
		{[]string{"-vet=0", "./..."}, false, false},
		{[]string{"-vettool", "-vet.x", "vet"}, false, true},
		{[]string{"--", "-vet=false"}, false, true},
	} {
		for _, c := range []struct {
			name  string
			suite []*analysis.Analyzer
			want  bool
		}{{"locklint", nil, tc.locklint}, {"locklint-vet", vet.Suite, tc.vet}} {
			vetSuite = c.suite
			if got := vetRequested(tc.args); got != c.want {
				t.Errorf("%s: vetRequested(%q) = %v, want %v", c.name, tc.args, got, c.want)
			}
		}
	}
	vetSuite = nil
}

func TestVetFlagWithoutVet(t *testing.T) {
	asCommand(t, vet.Suite)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-vet=false", "-printf.funcs=Logf", "-json", "vet.cfg"}, "printf.funcs"},
		{[]string{"--unusedresult", "-vet=false", "./..."}, "unusedresult"},
		// Near misses: with -vet (the default), locklint's own flags, and
		// patterns.
		{[]string{"-vet", "-printf.funcs=Logf", "./..."}, ""},
		{[]string{"-printf.funcs=Logf", "./..."}, ""},
		{[]string{"-setnxexpire", "-test=false", "-tags", "printf", "./..."}, ""},
		{[]string{"-vet=false", "--", "-printf"}, ""},
	} {
		if got := vetFlagWithoutVet(tc.args); got != tc.want {
			t.Errorf("vetFlagWithoutVet(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

var noFacts = &analysis.Analyzer{Name: "nofacts", Doc: "nofacts: reports nothing", Run: func(*analysis.Pass) (any, error) { return nil, nil }}

// TestLoadMode pins down what standalone runs type-check from source:
// locklint's facts need the paths to a Redis client, go vet's the whole
// graph, and an analyzer without facts only the roots.
func TestLoadMode(t *testing.T) {
	asCommand(t, vet.Suite)
	for _, tc := range []struct {
		name string
		run  []*analysis.Analyzer
		want int
	}{
		{"locklint", analyzer.Analyzers(), clientPaths},
		// Every pass requires the model, whose Forwarder facts follow
		// wrappers across packages.
		{"one pass", []*analysis.Analyzer{setnxexpire.Analyzer}, clientPaths},
		{"no facts", []*analysis.Analyzer{noFacts}, rootsOnly},
		{"with -vet", suiteFor([]string{"-vet"}), allFromSource},
		{"printf only", []*analysis.Analyzer{printf.Analyzer}, allFromSource},
	} {
		if got := loadMode(tc.run); got != tc.want {
			t.Errorf("%s: loadMode = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestFromSource checks what the loader type-checks from source for the
// facts: the wrapper package between the root and go-redis, and nothing
// of the standard library or the client itself.
func TestFromSource(t *testing.T) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedModule, Dir: filepath.Join("..", "..", "examples"), Tests: true}
	pkgs, err := packages.Load(cfg, "./reports")
	if err != nil {
		t.Fatal(err)
	}
	roots := map[string]bool{}
	for _, p := range pkgs {
		roots[p.ID] = true
	}
	got := fromSource(pkgs, roots)
	want := []string{"github.com/locklint/locklint/examples/locker"}
	if !slices.Equal(got, want) {
		t.Errorf("fromSource = %q, want %q", got, want)
	}
}

// TestSameFindingsAsMultichecker runs each example package on its own, so
// that cross-package facts come from a dependency, through the standalone
// driver and through multichecker (which loads everything from source;
// -debug=p routes there and only serializes the work): the findings must
// be byte-identical.
func TestSameFindingsAsMultichecker(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	bin := filepath.Join(t.TempDir(), "locklint")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(root, "cmd", "locklint")).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	testdata := testmod.Dir(t)
	for _, tc := range []struct{ dir, pkg string }{
		{filepath.Join(root, "examples"), "./reports"},
		{filepath.Join(root, "examples"), "./..."},
		{root, "./internal/..."},
		// Every shape the analyzers' tests hold, test files included.
		{testdata, "./..."},
		// Bound facts from a policy package of the main module that
		// never touches Redis, and Forwarder facts from a wrapper package,
		// each a dependency of the package linted alone.
		{testdata, "./unboundedretry/issue18facts"},
		{testdata, "./unconditionaldel/regressions/wrappers/app"},
	} {
		pkg := tc.pkg
		run := func(args ...string) []byte {
			args = append([]string{"-unconditionaldel.tests", "-plainpexpire.tests", "-constanttoken.tests", "-unguardedscript.tests"}, args...)
			cmd := exec.Command(bin, append(args, pkg)...)
			cmd.Dir = tc.dir
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("locklint %q %s: %v", args, pkg, err)
			}
			return out
		}
		own, multi := run("-json"), run("-json", "-debug=p")
		if pkg == "./reports" && !bytes.Contains(own, []byte(`"unboundedretry"`)) {
			t.Errorf("%s: no unboundedretry finding through the locker dependency's facts:\n%s", pkg, own)
		}
		if !bytes.Equal(own, multi) {
			t.Errorf("%s: standalone and multichecker differ\nstandalone:\n%s\nmultichecker:\n%s", pkg, own, multi)
		}
	}
}

type otherFact struct{}

func (*otherFact) AFact() {}

// TestScopedFactsOnly pins the check behind clientPaths: a fact type that
// does not say where it can live, declared by a pass or by anything it
// requires, loads the whole graph.
func TestScopedFactsOnly(t *testing.T) {
	other := &analysis.Analyzer{Name: "other", Doc: "other: x", FactTypes: []analysis.Fact{(*otherFact)(nil)}, Run: noFacts.Run}
	requiresOther := &analysis.Analyzer{Name: "req", Doc: "req: x", Requires: []*analysis.Analyzer{other}, Run: noFacts.Run}
	for _, tc := range []struct {
		a    *analysis.Analyzer
		want bool
	}{
		{setnxexpire.Analyzer, true},
		{other, false},
		{requiresOther, false},
		{noFacts, true},
	} {
		if got := scopedFactsOnly(tc.a); got != tc.want {
			t.Errorf("scopedFactsOnly(%s) = %v, want %v", tc.a.Name, got, tc.want)
		}
	}
	for _, a := range analyzer.Analyzers() {
		if !scopedFactsOnly(a) {
			t.Errorf("%s declares a fact type that does not say where it can live", a.Name)
		}
	}
}
