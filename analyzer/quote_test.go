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
	for f, src := range passSources(t) {
		if filepath.Base(f) == "doc.go" {
			continue
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

// quotes parses src and returns, in source order, the nodes for which
// text returns true, each with the text it gives.
func quotes(t *testing.T, name string, src []byte, text func(ast.Node) (string, bool)) []quote {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []quote
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := text(n); ok {
			out = append(out, quote{fset.Position(n.Pos()), s})
		}
		return true
	})
	return out
}

func quotedNames(t *testing.T, name string, src []byte, names map[string]bool) []quote {
	return quotes(t, name, src, func(n ast.Node) (string, bool) {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(lit.Value)
		return lit.Value, err == nil && names[strings.ToUpper(s)]
	})
}

// TestPassesNameNoClient enforces that the passes never branch on which
// client library a call came from: what a client's reply or method means
// is a question of the model's (Miss, Library, ...), so a pass that names
// one of the model's Client constants answers it in the wrong place.
func TestPassesNameNoClient(t *testing.T) {
	clients := clientConstants(t, "lockmodel")
	if !clients["Redigo"] || !clients["GoRedis"] {
		t.Fatalf("the model's Client constants were not found: %v", clients)
	}
	for f, src := range passSources(t) {
		for _, q := range namedClients(t, f, src, clients) {
			t.Errorf("%s: names the client %s; ask the model what it means", q.pos, q.lit)
		}
	}
}

// TestNamedClientsFindsAClient keeps the contract test honest.
func TestNamedClientsFindsAClient(t *testing.T) {
	src := []byte("package p\n\nimport \"x/lockmodel\"\n\nfunc f(c *lockmodel.Call) bool { return c.Client == lockmodel.Redigo }\n")
	got := namedClients(t, "p.go", src, map[string]bool{"Redigo": true})
	if len(got) != 1 || got[0].lit != "lockmodel.Redigo" {
		t.Fatalf("namedClients = %v, want one hit on lockmodel.Redigo", got)
	}
}

// clientConstants returns the names of the constants of type Client
// declared in ../analyzer/<pkg>: the iota block whose first constant has
// that type.
func clientConstants(t *testing.T, pkg string) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(pkg, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			inBlock := false
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); ok {
					inBlock = id.Name == "Client"
				} else if vs.Type != nil || len(vs.Values) > 0 {
					inBlock = false
				}
				if inBlock {
					for _, n := range vs.Names {
						names[n.Name] = true
					}
				}
			}
		}
	}
	return names
}

func namedClients(t *testing.T, name string, src []byte, clients map[string]bool) []quote {
	return quotes(t, name, src, func(n ast.Node) (string, bool) {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return "", false
		}
		x, ok := sel.X.(*ast.Ident)
		return "lockmodel." + sel.Sel.Name, ok && x.Name == "lockmodel" && clients[sel.Sel.Name]
	})
}

// passSources returns the non-test Go files of the passes and of the
// analyzers that serve them (loopbound), by path.
func passSources(t *testing.T) map[string][]byte {
	t.Helper()
	var files []string
	for _, pattern := range []string{"../passes/*/*.go", "loopbound/*.go"} {
		matches, err := filepath.Glob(pattern)
		if err != nil || len(matches) == 0 {
			t.Fatalf("no sources found for %s: %v", pattern, err)
		}
		files = append(files, matches...)
	}
	srcs := map[string][]byte{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[f] = src
	}
	return srcs
}
