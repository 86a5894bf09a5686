package analyzer_test

import (
	"flag"
	"go/types"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/locklint/locklint/analyzer"
)

// TestNogoContract checks what Bazel's nogo, golangci-lint and
// multichecker assume of every analyzer in the suite: nogo refers to a
// pass by its package's exported Analyzer variable and keys
// analyzer_flags and the config file by Name, so Name must equal the
// package name and be unique.
func TestNogoContract(t *testing.T) {
	as := analyzer.Analyzers()
	if err := analysis.Validate(as); err != nil {
		t.Fatalf("analysis.Validate: %v", err)
	}
	seen := map[string]bool{}
	var paths []string
	for _, a := range as {
		if seen[a.Name] {
			t.Errorf("duplicate analyzer name %q", a.Name)
		}
		seen[a.Name] = true

		pkgPath := funcPackage(a.Run)
		if pkgPath == "" {
			t.Errorf("%s: cannot tell the package of its Run func", a.Name)
			continue
		}
		if base := pkgPath[strings.LastIndex(pkgPath, "/")+1:]; base != a.Name {
			t.Errorf("%s: Name differs from its package %s", a.Name, pkgPath)
		}
		if !strings.HasPrefix(pkgPath, "github.com/locklint/locklint/passes/") {
			t.Errorf("%s: lives in %s, want under passes/", a.Name, pkgPath)
		}
		first, rest, _ := strings.Cut(a.Doc, "\n")
		if !strings.HasPrefix(first, a.Name+": ") || len(first) <= len(a.Name)+2 {
			t.Errorf("%s: Doc first line %q, want %q", a.Name, first, a.Name+": summary")
		}
		if !strings.HasPrefix(rest, "\n") || strings.TrimSpace(rest) == "" {
			t.Errorf("%s: Doc wants a blank line and prose after the summary", a.Name)
		}
		if !strings.HasPrefix(a.URL, "https://") {
			t.Errorf("%s: URL %q", a.Name, a.URL)
		}
		checkFlags(t, a, map[*analysis.Analyzer]bool{})
		paths = append(paths, pkgPath)
	}

	// nogo's deps name packages, and it reads their Analyzer variable.
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes}, paths...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		v, ok := p.Types.Scope().Lookup("Analyzer").(*types.Var)
		if !ok || types.TypeString(v.Type(), nil) != "*golang.org/x/tools/go/analysis.Analyzer" {
			t.Errorf("%s: no exported var Analyzer *analysis.Analyzer", p.PkgPath)
		}
	}
}

// checkFlags checks the analyzer's own flags and those of what it
// requires, as drivers expose both.
func checkFlags(t *testing.T, a *analysis.Analyzer, seen map[*analysis.Analyzer]bool) {
	if seen[a] {
		return
	}
	seen[a] = true
	a.Flags.VisitAll(func(f *flag.Flag) {
		if strings.TrimSpace(f.Usage) == "" {
			t.Errorf("%s.%s: no usage text", a.Name, f.Name)
		}
		if f.DefValue == "" {
			t.Errorf("%s.%s: empty default", a.Name, f.Name)
		}
		if f.Value.String() != f.DefValue {
			t.Errorf("%s.%s: value %q differs from default %q before any flag was set", a.Name, f.Name, f.Value, f.DefValue)
		}
	})
	for _, r := range a.Requires {
		checkFlags(t, r, seen)
	}
}

// funcPackage returns the import path of the package that declares fn.
func funcPackage(fn any) string {
	f := runtime.FuncForPC(reflect.ValueOf(fn).Pointer())
	if f == nil {
		return ""
	}
	name := f.Name() // e.g. github.com/x/passes/foo.run or ...foo.(*T).run
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if dot < 0 {
		return ""
	}
	return name[:slash+1+dot]
}
