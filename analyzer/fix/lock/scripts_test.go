package lock

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
// is an embedded file passed to newScript as a package variable, no Go
// code sends EVAL with any other text, and the scripts never build commands or code out of strings, so keys and
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
			if n == nil {
				return false
			}
			pos := fset.Position(n.Pos())
			switch n := n.(type) {
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "newScript" {
					scripts++
					arg, ok := n.Args[0].(*ast.Ident)
					if len(n.Args) != 1 || !ok || !embedded[arg.Name] {
						t.Errorf("%s: newScript argument is not an embedded file variable", pos)
					}
				}
			case *ast.CompositeLit:
				// A command whose first word is EVAL carries a script's
				// text: only script.run sends one, the text of a script
				// made by newScript.
				if len(n.Elts) < 2 {
					break
				}
				lit, ok := n.Elts[0].(*ast.BasicLit)
				if !ok || !strings.HasPrefix(strings.ToUpper(lit.Value), `"EVAL`) || strings.ToUpper(lit.Value) == `"EVALSHA"` {
					break
				}
				if sel, ok := n.Elts[1].(*ast.SelectorExpr); !ok || sel.Sel.Name != "src" {
					t.Errorf("%s: %s sent with a script text that is not a script's src", pos, lit.Value)
				}
			}
			return true
		})
	}
	if scripts == 0 {
		t.Fatal("found no newScript call; the check looks in the wrong place")
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

// TestFencingScriptsIssueFencesAlike keeps the three scripts that issue a
// fence in step: each INCRs the counter and starts a counter below 1e15
// at the server's TIME in microseconds with a one-day TTL, with the same
// lines but for the name of the counter's key (see fenced.lua).
func TestFencingScriptsIssueFencesAlike(t *testing.T) {
	counters := map[string]string{"fenced.lua": "KEYS[2]", "acquire.lua": "fence", "handoff.lua": "KEYS[3]"}
	var first, firstName string
	for name, counter := range counters {
		b, err := os.ReadFile("scripts/" + name)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		start := strings.Index(src, `local issued = redis.call("INCR", `+counter+")")
		if start < 0 {
			t.Errorf("%s: no INCR of %s", name, counter)
			continue
		}
		var block []string
		for line := range strings.SplitSeq(src[start:], "\n") {
			block = append(block, strings.ReplaceAll(strings.TrimSpace(line), counter, "COUNTER"))
			if strings.TrimSpace(line) == "end" {
				break
			}
		}
		got := strings.Join(block, "\n")
		for _, want := range []string{`if issued < 1e15 then`, `redis.call("TIME")`, `redis.call("SET", COUNTER, issued, "PX", 86400000)`} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: the fence's block lacks %s:\n%s", name, want, got)
			}
		}
		if first == "" {
			first, firstName = got, name
		} else if got != first {
			t.Errorf("%s issues fences unlike %s:\n%s\n---\n%s", name, firstName, got, first)
		}
	}
}
