package lockmodel

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// keySource wraps a key expression in a small package that declares the
// names the seeds use; the expression may still fail to type-check, as
// code under edit does, and the model runs despite errors.
const keySource = `package p

type RedisLock struct{ key, prefix string; n int }

const lockPrefix = "lock:"

var cacheKey string

func mutexKey(s string) string { return "mutex:" + s }

func f(l *RedisLock, name string, id int, m map[string]string, xs []string) {
	k := %s
	_ = k
}
`

// FuzzKeyID renders random key expressions, typed or not, and checks that
// KeyID and IsLockKey never panic and that KeyID is a pure function.
func FuzzKeyID(f *testing.F) {
	for _, s := range []string{
		`"lock:" + name`, `lockPrefix + name`, `l.key`, `mutexKey(name)`, `string(name)`,
		`m["lock"]`, `xs[id]`, `(((l.prefix)))`, `cacheKey`, `undefined + name`,
		`func() string { return "lock" }()`, `[]string{"a"}[0]`, `*&name`, `l.key + ":" + mutexKey(l.prefix+name)`,
		`name[1:]`, `any(name).(string)`, `<-make(chan string)`, `struct{ s string }{"lock"}.s`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if _, err := parser.ParseExpr(src); err != nil {
			return
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "p.go", sprintf(keySource, src), parser.SkipObjectResolution)
		if err != nil {
			return
		}
		info := &types.Info{
			Types:      map[ast.Expr]types.TypeAndValue{},
			Defs:       map[*ast.Ident]types.Object{},
			Uses:       map[*ast.Ident]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{},
		}
		conf := types.Config{Error: func(error) {}}
		pkg, _ := conf.Check("p", fset, []*ast.File{file}, info)
		pass := &analysis.Pass{Fset: fset, Files: []*ast.File{file}, Pkg: pkg, TypesInfo: info}
		m := &Model{Pass: pass, Words: defaultWordSet(), byID: map[*ast.CallExpr]*Call{}}
		m.defs = newDefIndex(pass.Files, pass.TypesInfo, pass.Pkg)
		m.keys = newKeyIndex(m)

		var key ast.Expr
		ast.Inspect(file, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && key == nil && len(as.Rhs) == 1 {
				key = as.Rhs[0]
			}
			return key == nil
		})
		if key == nil {
			return
		}
		id := m.KeyID(key)
		if again := m.KeyID(key); again != id {
			t.Fatalf("KeyID(%s) = %q, then %q", src, id, again)
		}
		m.IsLockKey(&Call{}, key)
	})
}

func sprintf(format, s string) string {
	// fmt.Sprintf would read verbs in the fuzzed text; the template has one.
	for i := 0; i+1 < len(format); i++ {
		if format[i] == '%' && format[i+1] == 's' {
			return format[:i] + s + format[i+2:]
		}
	}
	return format
}
