package edit

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// pass type-checks src as one file of package p, with the lock library
// and any other import standing in as empty packages.
func pass(t *testing.T, src string) (*analysis.Pass, *ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	name := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	std := importer.Default()
	conf := types.Config{Importer: importerFunc(func(path string) (*types.Package, error) {
		if p, err := std.Import(path); err == nil {
			return p, nil
		}
		return types.NewPackage(path, path[strings.LastIndex(path, "/")+1:]), nil
	}), Error: func(error) {}}
	info := &types.Info{Scopes: map[ast.Node]*types.Scope{}}
	pkg, _ := conf.Check("p", fset, []*ast.File{f}, info)
	return &analysis.Pass{Fset: fset, Files: []*ast.File{f}, Pkg: pkg, TypesInfo: info, ReadFile: os.ReadFile}, f
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// apply applies edits to the file's source.
func apply(t *testing.T, p *analysis.Pass, f *ast.File, edits []analysis.TextEdit) string {
	t.Helper()
	tf := p.Fset.File(f.Pos())
	src, err := os.ReadFile(tf.Name())
	if err != nil {
		t.Fatal(err)
	}
	out := string(src)
	// Apply from the end so earlier offsets stay valid.
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		out = out[:tf.Offset(e.Pos)] + string(e.NewText) + out[tf.Offset(e.End):]
	}
	return out
}

func TestImportFix(t *testing.T) {
	const lib = `"github.com/locklint/locklint/analyzer/fix"`
	for _, tc := range []struct {
		name, src string
		ok        bool
		as        string
		want      string // a fragment of the edited source
	}{
		{"block", "package p\n\nimport (\n\t\"time\"\n)\n\nvar _ = time.Now\n", true, "fix", "\t\"time\"\n\t" + lib + "\n)"},
		{"single import becomes a block", "package p\n\nimport \"time\"\n\nvar _ = time.Now\n", true, "fix", "import (\n\t\"time\"\n\t" + lib + "\n)"},
		{"no imports", "package p\n\nvar x = 1\n", true, "fix", "package p\n\nimport " + lib},
		{"already imported", "package p\n\nimport " + lib + "\n\nvar _ = fix.X\n", true, "fix", ""},
		{"imported under a name", "package p\n\nimport lk " + lib + "\n\nvar _ = lk.X\n", true, "lk", ""},
		{"dot import", "package p\n\nimport . " + lib + "\n", false, "", ""},
		{"blank import", "package p\n\nimport _ " + lib + "\n", false, "", ""},
		{"name taken by a declaration", "package p\n\nvar fix = 1\n", false, "", ""},
		{"name taken by another import", "package p\n\nimport \"example.com/x/fix\"\n\nvar _ = fix.Y\n", false, "", ""},
		{"name taken by a local variable", "package p\n\nfunc f() {\n\tfix := 1\n\t_ = fix\n\tg()\n}\n\nfunc g() {}\n", false, "", ""},
		{"local variable in another function", "package p\n\nfunc f() {\n\tg()\n}\n\nfunc g() {\n\tfix := 1\n\t_ = fix\n}\n", true, "fix", "package p\n\nimport " + lib},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, f := pass(t, tc.src)
			as, edits, ok := Import(p, f, atCallOfG(f), "github.com/locklint/locklint/analyzer/fix")
			if ok != tc.ok || (ok && as[0] != tc.as) {
				t.Fatalf("Import = %q, ok %v; want %q, ok %v", as, ok, tc.as, tc.ok)
			}
			if tc.want == "" {
				if len(edits) != 0 {
					t.Errorf("edits %v, want none", edits)
				}
				return
			}
			if got := apply(t, p, f, edits); !strings.Contains(got, tc.want) {
				t.Errorf("edited source:\n%s\nwant it to contain:\n%s", got, tc.want)
			}
		})
	}
}

// atCallOfG returns the position of the first call of g in f, where a
// fix would write its call, or the end of the file when there is none.
func atCallOfG(f *ast.File) token.Pos {
	pos := f.End()
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && pos == f.End() {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "g" {
				pos = call.Pos()
			}
		}
		return true
	})
	return pos
}

// TestImportCoreAndAdapter imports the library's core and an adapter in
// one edit, since two insertions at one place would be applied in no
// defined order.
func TestImportCoreAndAdapter(t *testing.T) {
	const core, adapter = "github.com/locklint/locklint/analyzer/fix/lock", "github.com/locklint/locklint/analyzer/fix/fixredigo"
	for _, tc := range []struct{ name, src, want string }{
		{"block", "package p\n\nimport (\n\t\"time\"\n)\n\nvar _ = time.Now\n", "\t\"time\"\n\t\"" + core + "\"\n\t\"" + adapter + "\"\n)"},
		{"no imports", "package p\n\nvar x = 1\n", "package p\n\nimport (\n\t\"" + core + "\"\n\t\"" + adapter + "\"\n)"},
		{"core already imported", "package p\n\nimport \"" + core + "\"\n\nvar _ = lock.X\n", "import (\n\t\"" + core + "\"\n\t\"" + adapter + "\"\n)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, f := pass(t, tc.src)
			names, edits, ok := Import(p, f, f.End(), core, adapter)
			if !ok || len(names) != 2 || names[0] != "lock" || names[1] != "fixredigo" {
				t.Fatalf("Import = %q, ok %v; want [lock fixredigo], ok", names, ok)
			}
			if got := apply(t, p, f, edits); !strings.Contains(got, tc.want) {
				t.Errorf("edited source:\n%s\nwant it to contain:\n%s", got, tc.want)
			}
		})
	}
}

func TestDeleteStmt(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"alone on its line", "package p\n\nfunc f() {\n\tg()\n\th()\n}\n\nfunc g() {}\nfunc h() {}\n", "func f() {\n\th()\n}"},
		{"beside another statement", "package p\n\nfunc f() {\n\tg(); h()\n}\n\nfunc g() {}\nfunc h() {}\n", "func f() {\n\t; h()\n}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, f := pass(t, tc.src)
			stmt := f.Decls[0].(*ast.FuncDecl).Body.List[0]
			e, ok := DeleteStmt(p, stmt)
			if !ok {
				t.Fatal("DeleteStmt refused")
			}
			if got := apply(t, p, f, []analysis.TextEdit{e}); !strings.Contains(got, tc.want) {
				t.Errorf("edited source:\n%s\nwant it to contain:\n%s", got, tc.want)
			}
		})
	}
}

// An edit inside a string literal is offered only where the value's bytes
// are written as themselves in the source.
func TestInLiteral(t *testing.T) {
	for _, tc := range []struct {
		name, lit string
		off, end  int // the range of "nil" in the value
		want      string
	}{
		{"raw", "`if v == nil then`", 8, 11, "`if v == false then`"},
		{"interpreted", `"if v == nil then"`, 8, 11, `"if v == false then"`},
		{"escapeBefore", `"a\nif v == nil"`, 10, 13, `"a\nif v == false"`},
		{"unicodeEscapeBefore", `"\u00e9 v == nil"`, 8, 11, `"\u00e9 v == false"`},
		{"literalUTF8Before", `"é v == nil"`, 8, 11, `"é v == false"`},
		{"escapeInside", `"v == n\x69l"`, 5, 8, ""},
		{"rawCarriageReturn", "`a\r\nv == nil`", 7, 10, ""},
		{"outside", `"nil"`, 2, 5, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			e, err := parser.ParseExprFrom(fset, "x.go", tc.lit, 0)
			if err != nil {
				t.Fatal(err)
			}
			lit := e.(*ast.BasicLit)
			val, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != "" && val[tc.off:tc.end] != "nil" {
				t.Fatalf("value %q: [%d:%d] is %q", val, tc.off, tc.end, val[tc.off:tc.end])
			}
			ed, ok := InLiteral(lit, tc.off, tc.end, "false")
			if ok != (tc.want != "") {
				t.Fatalf("ok = %v, want %v", ok, tc.want != "")
			}
			if !ok {
				return
			}
			base := int(lit.Pos())
			got := tc.lit[:int(ed.Pos)-base] + string(ed.NewText) + tc.lit[int(ed.End)-base:]
			if got != tc.want {
				t.Errorf("edited %s, want %s", got, tc.want)
			}
		})
	}
}
