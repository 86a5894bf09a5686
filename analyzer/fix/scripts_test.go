package fix

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptsTakeDataOnlyThroughKeysAndArgv checks the source: every script
// is an embedded file passed to redis.NewScript as a package variable, no
// Go code builds a script text or sends EVAL with a non-constant script,
// and the scripts never build commands or code out of strings, so keys and
// tokens reach Redis only as KEYS and ARGV.
func TestScriptsTakeDataOnlyThroughKeysAndArgv(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	embedded := map[string]bool{}
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if hasEmbed(vs.Doc) {
					for _, n := range vs.Names {
						embedded[n.Name] = true
					}
				}
			}
		}
	}
	scripts := 0
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pos := fset.Position(call.Pos())
			switch sel.Sel.Name {
			case "NewScript":
				scripts++
				id, ok := call.Args[0].(*ast.Ident)
				if len(call.Args) != 1 || !ok || !embedded[id.Name] {
					t.Errorf("%s: redis.NewScript argument is not an embedded file variable", pos)
				}
			case "Eval", "EvalRO", "EvalSha", "EvalShaRO", "ScriptLoad":
				if len(call.Args) < 2 {
					break
				}
				if _, ok := call.Args[1].(*ast.BasicLit); !ok {
					t.Errorf("%s: %s with a non-constant script", pos, sel.Sel.Name)
				}
			case "Do":
				for _, a := range call.Args {
					if lit, ok := a.(*ast.BasicLit); ok && strings.Contains(strings.ToUpper(lit.Value), "EVAL") {
						t.Errorf("%s: EVAL sent through Do", pos)
					}
				}
			}
			return true
		})
	}
	if scripts == 0 {
		t.Fatal("found no redis.NewScript call; the check looks in the wrong place")
	}
	luas, _ := filepath.Glob("scripts/*.lua")
	if len(luas) != len(embedded) {
		t.Errorf("%d .lua files, %d embedded variables", len(luas), len(embedded))
	}
	for _, p := range luas {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var code []string
		for line := range strings.SplitSeq(string(b), "\n") {
			if i := strings.Index(line, "--"); i >= 0 {
				line = line[:i]
			}
			code = append(code, line)
		}
		src := strings.Join(code, "\n")
		for _, bad := range []string{"..", "loadstring", "load(", "string.format", "redis.call(ARGV", "redis.pcall(ARGV"} {
			if strings.Contains(src, bad) {
				t.Errorf("%s uses %q: data must not become code or a command name", p, bad)
			}
		}
		if !strings.Contains(src, "KEYS[") {
			t.Errorf("%s names no key through KEYS", p)
		}
	}
}

func hasEmbed(cg *ast.CommentGroup) bool {
	if cg == nil {
		return false
	}
	for _, c := range cg.List {
		if strings.HasPrefix(c.Text, "//go:embed ") {
			return true
		}
	}
	return false
}
