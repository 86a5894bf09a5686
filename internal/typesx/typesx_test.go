package typesx

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/cfg"
)

const src = `package p

import (
	"context"
	"net/http"
	"time"
)

type ctxish struct{ context.Context }

var (
	b      bool
	nb     myBool
	err    error
	s      string
	ns     myString
	a      any
	iface  interface{ M() }
	ctx    context.Context
	pctx   *context.Context
	embed  ctxish
	d      time.Duration
	req    *http.Request
	n      int
)

type myBool bool
type myString string
`

func check(t *testing.T) (*types.Package, func(string) types.Type) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg, func(name string) types.Type { return pkg.Scope().Lookup(name).Type() }
}

func TestTypePredicates(t *testing.T) {
	_, typ := check(t)
	cases := []struct {
		name string
		pred func(types.Type) bool
		yes  []string
		no   []string
	}{
		{"IsBool", IsBool, []string{"b", "nb"}, []string{"err", "s", "n"}},
		{"IsError", IsError, []string{"err"}, []string{"b", "a", "iface"}},
		{"IsString", IsString, []string{"s", "ns"}, []string{"b", "n", "a"}},
		{"IsEmptyInterface", IsEmptyInterface, []string{"a"}, []string{"iface", "err", "s"}},
		{"IsContext", IsContext, []string{"ctx"}, []string{"pctx", "embed", "a"}},
		{"HasContextMethods", HasContextMethods, []string{"ctx", "embed"}, []string{"a", "req", "n"}},
		{"IsDuration", IsDuration, []string{"d"}, []string{"n", "ctx"}},
	}
	for _, c := range cases {
		for _, v := range c.yes {
			if !c.pred(typ(v)) {
				t.Errorf("%s(%s) = false, want true", c.name, typ(v))
			}
		}
		for _, v := range c.no {
			if c.pred(typ(v)) {
				t.Errorf("%s(%s) = true, want false", c.name, typ(v))
			}
		}
	}
	for _, p := range []func(types.Type) bool{IsBool, IsError, IsString, IsEmptyInterface, HasContextMethods} {
		if p(nil) {
			t.Error("a predicate holds for a nil type")
		}
	}
}

func TestNamedPredicates(t *testing.T) {
	_, typ := check(t)
	if !IsNamed(typ("ctx"), "context", "Context") || IsNamed(typ("pctx"), "context", "Context") {
		t.Error("IsNamed must match the named type itself only")
	}
	if !IsNamedOrPointer(typ("pctx"), "context", "Context") || !IsNamedOrPointer(typ("req"), "net/http", "Request") {
		t.Error("IsNamedOrPointer must match a pointer to the named type")
	}
	if IsNamedOrPointer(typ("d"), "context", "Context") {
		t.Error("IsNamedOrPointer matched another type")
	}
}

const flow = `package p

func f(xs []int) {
	g()
	for _, x := range xs {
		h(x)
	}
	return
	dead()
}

func g()      {}
func h(int)   {}
func dead()   {}
`

func TestBlocks(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", flow, 0)
	if err != nil {
		t.Fatal(err)
	}
	fn := f.Decls[0].(*ast.FuncDecl)
	g := cfg.New(fn.Body, func(*ast.CallExpr) bool { return true })
	calls := map[string]*ast.CallExpr{}
	ast.Inspect(fn, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			calls[c.Fun.(*ast.Ident).Name] = c
		}
		return true
	})
	if b, _ := BlockOf(g, calls["g"]); b == nil || b.Index != 0 {
		t.Errorf("BlockOf(g()) = %v, want the entry block", b)
	}
	if b, _ := BlockOf(g, calls["dead"]); b != nil {
		t.Errorf("BlockOf(dead()) = block %d, want none (unreachable)", b.Index)
	}
	if b, _ := Innermost(g, calls["dead"].Pos()); b == nil || b.Live {
		t.Errorf("Innermost(dead()) = %v, want its dead block", b)
	}
	body, _ := Innermost(g, calls["h"].Pos())
	head, _ := BlockOf(g, calls["h"])
	if body == nil || head == nil || body != head {
		t.Errorf("h(x) in the range body: Innermost %v, BlockOf %v; want the body's block for both", body, head)
	}
	if b, i := Innermost(g, token.NoPos); b != nil || i != -1 {
		t.Errorf("Innermost(NoPos) = %v, %d", b, i)
	}
}

func TestRecvBaseAndSource(t *testing.T) {
	for _, tc := range []struct{ expr, base, source string }{
		{"T", "T", "T"},
		{"*T", "T", "*T"},
		{"(*T)", "T", "(*T)"},
		{"T[P]", "T", "T[P]"},
		{"*T[K,  V]", "T", "*T[K, V]"},
		{"p.T", "", "p.T"},
		{"[]T", "", "[]T"},
	} {
		e, err := parser.ParseExpr(tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := RecvBase(e); got != tc.base {
			t.Errorf("RecvBase(%s) = %q, want %q", tc.expr, got, tc.base)
		}
		if got := Source(token.NewFileSet(), e); got != tc.source {
			t.Errorf("Source(%s) = %q, want %q", tc.expr, got, tc.source)
		}
	}
}

func TestStmts(t *testing.T) {
	const src = `package p
func f(c chan int, x int) {
	switch x {
	case 1:
		x++
		x++
	}
	select {
	case <-c:
		x++
	}
}`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	sw := body.List[0].(*ast.SwitchStmt)
	sel := body.List[1].(*ast.SelectStmt)
	for _, tc := range []struct {
		name string
		n    ast.Node
		want int
	}{
		{"block", body, 2},
		{"case clause", sw.Body.List[0], 2},
		{"select clause", sel.Body.List[0], 1},
		{"switch", sw, 0},
		{"func", f.Decls[0], 0},
	} {
		if got := len(Stmts(tc.n)); got != tc.want {
			t.Errorf("%s: %d statements, want %d", tc.name, got, tc.want)
		}
	}
}

func TestOutsideClosures(t *testing.T) {
	const src = `package p
func f() {
	top()
	go func() { inner() }()
	if cond() {
		under()
	}
	defer func() { func() { deeper() }() }()
}`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	lit := body.List[1].(*ast.GoStmt).Call.Fun.(*ast.FuncLit)
	noSkip := func(ast.Node) bool { return false }
	skipIf := func(n ast.Node) bool { _, ok := n.(*ast.IfStmt); return ok }
	for _, tc := range []struct {
		name string
		root ast.Node
		find string // the name of the function called
		skip func(ast.Node) bool
		want bool
	}{
		{"found at top level", body, "top", noSkip, true},
		{"found in a nested block", body, "under", noSkip, true},
		{"found only inside a closure", body, "inner", noSkip, false},
		{"found only inside a closure in a closure", body, "deeper", noSkip, false},
		{"root is a closure", lit, "inner", noSkip, false},
		{"found only in a skipped subtree", body, "under", skipIf, false},
		{"found beside a skipped subtree", body, "top", skipIf, true},
		{"not found", body, "absent", noSkip, false},
	} {
		match := func(n ast.Node) (bool, bool) {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return false, tc.skip(n)
			}
			id, ok := c.Fun.(*ast.Ident)
			return ok && id.Name == tc.find, tc.skip(n)
		}
		if got := OutsideClosures(tc.root, match); got != tc.want {
			t.Errorf("%s: OutsideClosures(%s) = %v, want %v", tc.name, tc.find, got, tc.want)
		}
	}

	// The walk stops at the first node found.
	visits := 0
	OutsideClosures(body, func(n ast.Node) (bool, bool) {
		visits++
		_, ok := n.(*ast.CallExpr)
		return ok, false
	})
	if visits != 3 { // the body, the statement, the call
		t.Errorf("OutsideClosures visited %d nodes up to the first call, want 3", visits)
	}
}

func TestRefers(t *testing.T) {
	const src = `package p

var a, b int

func f() bool { return a > 1 }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	body := f.Decls[1].(*ast.FuncDecl).Body
	if !Refers(info, body, pkg.Scope().Lookup("a")) {
		t.Error("Refers(body, a) = false, want true")
	}
	if Refers(info, body, pkg.Scope().Lookup("b")) {
		t.Error("Refers(body, b) = true, want false")
	}
	// The declaration defines a; it does not use it.
	if Refers(info, f.Decls[0], pkg.Scope().Lookup("a")) {
		t.Error("Refers(decl, a) = true, want false: a definition is not a use")
	}
	if Refers(info, body, nil) {
		t.Error("Refers(body, nil) = true, want false")
	}
}

func TestFileOf(t *testing.T) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, src := range []string{"package p\n\nvar a = 1\n", "package p\n\nvar b = 2\n"} {
		f, err := parser.ParseFile(fset, "", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for i, f := range files {
		decl := f.Decls[0]
		if got := FileOf(files, decl.Pos()); got != f {
			t.Errorf("FileOf(decl of file %d) = %v, want file %d", i, got, i)
		}
	}
	if got := FileOf(files, token.NoPos); got != nil {
		t.Errorf("FileOf(NoPos) = %v, want nil", got)
	}
	if got := FileOf(files[:1], files[1].Decls[0].Pos()); got != nil {
		t.Errorf("FileOf(position of another file) = %v, want nil", got)
	}
}
