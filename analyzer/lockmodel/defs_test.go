package lockmodel

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

const defsSource = `package main

import "crypto/rand"

type lock struct{ key, token string }

var (
	prefix  = "lock:"
	counter int
	later   = "x"
	pointed = "y"
	zero    string
)

func init() { counter = 1 }

func setLater() { later = "z" }

func two() (string, error) { return "", nil }

func g(n int) {}

func h(n int) {}

func G(n int) {}

func f(name string) {
	once := "lock:" + name
	twice := "a"
	twice = "b"
	bumped := 1
	bumped += 2
	var declared string
	declared = "c"
	addressed := "d"
	_ = &addressed
	tup, err := two()
	for i := range 3 {
		_ = i
	}
	for j := 0; j < 3; j++ {
		_ = j
	}
	for k := 0; k < 3; k++ {
		k++
	}
	for m := 0; m < 3; m += 2 {
		g(m)
	}
	h(1)
	h(2)
	_ = h
	_ = G
	buf := make([]byte, 16)
	rand.Read(buf)
	l := lock{key: once}
	l.token, err = two()
	var built lock
	built.key = "k"
	_ = &pointed
	_, _, _, _, _, _, _, _, _ = once, twice, bumped, declared, tup, err, l, built, zero
}
`

// TestDefIndex pins down what the one definition index answers: which
// variables have one definition, what a package-level variable starts
// with and whether a function that runs more than once changes it, what
// fields hold, and which buffers a random read fills.
func TestDefIndex(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", defsSource, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check("p", fset, []*ast.File{file}, info)
	if err != nil {
		t.Fatal(err)
	}
	d := newDefIndex([]*ast.File{file}, info, pkg)
	// The locals of f have names of their own.
	local := func(name string) types.Object {
		for id, obj := range info.Defs {
			if id.Name == name && obj != nil && obj.Parent() != pkg.Scope() {
				return obj
			}
		}
		t.Fatalf("no local %s", name)
		return nil
	}
	global := func(name string) *types.Var { return pkg.Scope().Lookup(name).(*types.Var) }
	render := func(e ast.Expr) string {
		if e == nil {
			return ""
		}
		return types.ExprString(e)
	}

	for _, tc := range []struct{ name, value string }{
		{"once", `"lock:" + name`},
		{"declared", `"c"`}, // var x T, then one assignment
		{"twice", ""},
		{"bumped", ""}, // x += v has no single value
		{"addressed", ""},
		{"tup", ""}, // a tuple result: only, not value
		{"i", ""},
	} {
		if got := render(d.value(local(tc.name))); got != tc.value {
			t.Errorf("value(%s) = %q, want %q", tc.name, got, tc.value)
		}
	}
	if x, ok := d.only(local("tup")); !ok || x.tuple == nil || x.index != 0 {
		t.Errorf("only(tup) = %+v, %v; want result 0 of two()", x, ok)
	}
	if n := len(d.assigns(local("twice"))); n != 2 {
		t.Errorf("assigns(twice) = %d positions, want 2", n)
	}
	if n := len(d.assigns(local("declared"))); n != 2 {
		t.Errorf("assigns(declared) = %d positions, want 2 (the declaration counts)", n)
	}

	// Loop counters: a for loop's own count, or a range index; not one the
	// body moves as well.
	for name, want := range map[string]bool{"i": true, "j": true, "k": false, "m": true, "once": false} {
		if got := d.counter(local(name)); got != want {
			t.Errorf("counter(%s) = %v, want %v", name, got, want)
		}
	}
	// Callers: all of an unexported function's calls when it is named in
	// nothing else; none for one passed as a value or exported.
	fn := func(name string) *types.Func { return pkg.Scope().Lookup(name).(*types.Func) }
	if calls, ok := d.callers(fn("g")); !ok || len(calls) != 1 || calls[0].fn.Name.Name != "f" {
		t.Errorf("callers(g) = %v, %v; want the call in f", calls, ok)
	}
	for _, name := range []string{"h", "G"} {
		if _, ok := d.callers(fn(name)); ok {
			t.Errorf("callers(%s) is known; want it out of sight", name)
		}
	}
	if p, ok := d.params[fn("g").Type().(*types.Signature).Params().At(0)]; !ok || p.index != 0 || p.fn != fn("g") {
		t.Errorf("params: g's n = %+v, %v", p, ok)
	}

	runsOnce := func(fn *ast.FuncDecl) bool { return fn.Name.Name == "init" }
	for _, tc := range []struct {
		name    string
		initial string
		later   bool
	}{
		{"prefix", `"lock:"`, false},
		{"counter", "", false}, // assigned in init only
		{"later", `"x"`, true},
		{"pointed", `"y"`, true}, // &pointed in f
		{"zero", "", false},
	} {
		x, ok := d.initial(global(tc.name))
		if !ok || render(x.val) != tc.initial {
			t.Errorf("initial(%s) = %q, %v; want %q", tc.name, render(x.val), ok, tc.initial)
		}
		if got := d.changedLater(global(tc.name), runsOnce); got != tc.later {
			t.Errorf("changedLater(%s) = %v, want %v", tc.name, got, tc.later)
		}
	}

	lockT := pkg.Scope().Lookup("lock").Type().Underlying().(*types.Struct)
	key, tok := lockT.Field(0), lockT.Field(1)
	if vals := d.fieldValues(key); len(vals) != 2 {
		t.Errorf("fieldValues(key) = %d values, want 2 (a literal and an assignment)", len(vals))
	}
	if v := d.fieldValue(key); v != nil {
		t.Errorf("fieldValue(key) = %s, want none: two stores", render(v))
	}
	if v := d.fieldValue(tok); v != nil {
		t.Errorf("fieldValue(token) = %s, want none: a tuple store carries no expression", render(v))
	}
	if src, ok := d.fills[local("buf")]; !ok || src.Origin != OriginFresh {
		t.Errorf("fills[buf] = %+v, %v; want crypto/rand", src, ok)
	}
	if d.funcs[pkg.Scope().Lookup("two")] == nil {
		t.Errorf("funcs lacks two")
	}
}

const unsetSource = `package p

type Options struct{ TTL, Wait int64 }

type S struct {
	opts   Options
	shared Options
	loaded Options
	set    Options
	Public Options
	ptr    *Options
	lease  int64
	idle   int64
	bumped int64
}

func (o *Options) Load() {}

func New() *S { return &S{lease: 1, set: Options{Wait: 1}} }

func (s *S) use() []int64 {
	_ = &s.shared
	s.loaded.Load()
	s.bumped++
	return []int64{s.opts.TTL, s.shared.TTL, s.loaded.TTL, s.set.TTL, s.Public.TTL, s.ptr.TTL, s.lease, s.idle, s.bumped}
}
`

// TestUnsetFields pins down which field reads are zero wherever they are
// read: nothing of the package stores into the field or shares its
// address, and no other package can reach it.
func TestUnsetFields(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", unsetSource, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{file}, info)
	if err != nil {
		t.Fatal(err)
	}
	d := newDefIndex([]*ast.File{file}, info, pkg)
	want := map[string]bool{
		"s.opts.TTL":   true, // opts is never set: a zero Options
		"s.idle":       true,
		"s.shared.TTL": false, // &s.shared
		"s.loaded.TTL": false, // a pointer method gets &s.loaded
		"s.set.TTL":    false, // set is stored by New
		"s.Public.TTL": false, // exported: other packages set it
		"s.ptr.TTL":    false, // a nil holder has no field
		"s.lease":      false, // stored by New
		"s.bumped":     false, // s.bumped++
	}
	var lit *ast.CompositeLit
	ast.Inspect(file, func(n ast.Node) bool {
		if c, ok := n.(*ast.CompositeLit); ok && len(c.Elts) == len(want) {
			lit = c
		}
		return true
	})
	if lit == nil {
		t.Fatal("no list of reads")
	}
	for _, e := range lit.Elts {
		name := types.ExprString(e)
		if got := d.unset(e); got != want[name] {
			t.Errorf("unset(%s) = %v, want %v", name, got, want[name])
		}
	}
}

const appendedSource = `package p

type W struct {
	V
	held   []string
	mixed  []string
	elemed []string
	shared []string
}

func (w *W) use(k, j string, i int) {
	w.held = append(w.held, k)
	w.held = w.held[:0]
	w.held = append(w.held[:i], w.held[i+1:]...)
	w.held = nil
	w.mixed = append(w.mixed, k)
	w.mixed = []string{j}
	w.elemed = append(w.elemed, k)
	w.elemed[0] = j
	w.shared = append(w.shared, k)
	_ = &w.shared
	var local []string
	local = append(local, j)
	_ = local
}

func (w *W) param(in []string, k string) {
	in = append(in, k)
	w.Exported = append(w.Exported, k)
}

type V struct{ Exported []string }
`

// TestAppended pins down what a slice ever receives: the elements of the
// appends stored back into it, when every other store adds nothing.
func TestAppended(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", appendedSource, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{file}, info)
	if err != nil {
		t.Fatal(err)
	}
	d := newDefIndex([]*ast.File{file}, info, pkg)
	w := pkg.Scope().Lookup("W").Type().Underlying().(*types.Struct)
	v := pkg.Scope().Lookup("V").Type().Underlying().(*types.Struct)
	var local, in types.Object
	for id, obj := range info.Defs {
		switch id.Name {
		case "local":
			local = obj
		case "in":
			in = obj
		}
	}
	for _, tc := range []struct {
		obj  types.Object
		want string // the elements received, or "unknown"
	}{
		{w.Field(1), "k"},
		{w.Field(2), "unknown"}, // a literal with an element
		{w.Field(3), "unknown"}, // w.elemed[0] = j
		{w.Field(4), "unknown"}, // &w.shared
		{local, "j"},
		{in, "unknown"},         // the caller's elements come with it
		{v.Field(0), "unknown"}, // exported: other packages fill it
	} {
		got := "unknown"
		if stores, ok := d.appended(tc.obj); ok {
			var vals []string
			for _, s := range stores {
				vals = append(vals, types.ExprString(s.val))
			}
			got = strings.Join(vals, ",")
		}
		if got != tc.want {
			t.Errorf("appended(%s) = %s, want %s", tc.obj.Name(), got, tc.want)
		}
	}
}
