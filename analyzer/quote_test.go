package analyzer_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/locklint/locklint/analyzer/lockmodel"
)

// TestPassesQuoteNoCommandNames enforces that the passes read the model
// and never match Redis commands or client methods by name: a string
// literal in a pass's source that is one of the model's command or method
// names means the pass answers a question the model should.
func TestPassesQuoteNoCommandNames(t *testing.T) {
	names := map[string]bool{}
	for _, n := range lockmodel.CommandNames() {
		names[strings.ToUpper(n)] = true
	}
	files, err := filepath.Glob("../passes/*/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no pass sources found: %v", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || filepath.Base(f) == "doc.go" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range quotedNames(t, f, src, names) {
			t.Errorf("%s: quotes %s; ask the model instead", q.pos, q.lit)
		}
	}
}

// TestQuotedNamesFindsACommand keeps the contract test honest: it must
// see a quoted command in a pass-like source.
func TestQuotedNamesFindsACommand(t *testing.T) {
	src := []byte("package p\n\nfunc f(m string) bool { return m == \"SetNX\" || m == \"safe message\" }\n")
	got := quotedNames(t, "p.go", src, map[string]bool{"SETNX": true})
	if len(got) != 1 || got[0].lit != `"SetNX"` {
		t.Fatalf("quotedNames = %v, want one hit on \"SetNX\"", got)
	}
}

type quote struct {
	pos token.Position
	lit string
}

func quotedNames(t *testing.T, name string, src []byte, names map[string]bool) []quote {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []quote
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err == nil && names[strings.ToUpper(s)] {
			out = append(out, quote{fset.Position(lit.Pos()), lit.Value})
		}
		return true
	})
	return out
}
