package lockmodel

// The definition index: one walk over the files that records every
// assignment, field store, parameter, loop counter and call.

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// defIndex is the package's one index of definitions: every assignment to
// a variable, every store into a struct field, the functions declared
// here, and buffers filled by a random read. It is built in one walk over
// the files before the commands are collected, and keys, tokens, scripts,
// slots and wrappers all ask it what a name holds.
type defIndex struct {
	info *types.Info
	pkg  *types.Package
	vars map[types.Object][]def
	// fields are the values stored into struct fields: assignments and
	// composite literals.
	fields map[types.Object][]fieldStore
	// shared are the fields whose address is taken (&s.f, or a method with
	// a pointer receiver called on s.f) or that are stepped (s.f++): they
	// may change where no store of the index shows it.
	shared map[types.Object]bool
	// elems are the values stored into the elements of a variable's
	// slice, array or map (b[i] = v), or written into its bytes.Buffer or
	// strings.Builder (b.WriteByte(v)).
	elems map[types.Object][]fieldStore
	funcs map[types.Object]*ast.FuncDecl
	// fills are buffers filled by crypto/rand or math/rand (Read(b)).
	fills map[types.Object]TokenOrigin
	// decls are the function declarations, assignments and value specs in
	// source order, for facts.go.
	decls []ast.Node
	// counters are the variables a loop counts with: for i := c; ...; i++
	// (or i += c), and the index key of a range over an integer, a slice
	// or an array.
	counters map[types.Object]bool
	// calls are the calls of each function and method of the package (by
	// its origin), in the order of the syntax, and uses how often each is
	// named at all: a function named only in calls has no callers the
	// model cannot see.
	calls map[types.Object][]callSite
	uses  map[types.Object]int
	// params are the parameters of the package's functions.
	params map[types.Object]param
	// foreign are the calls of other packages' exported functions (not
	// methods) that return a value: the constructors among them may keep
	// an argument as a lock's token (TokenParam).
	foreign []callSite
}

// callSite is a call and the function declaration it is in.
type callSite struct {
	call *ast.CallExpr
	fn   *ast.FuncDecl
}

// param is parameter index of function fn.
type param struct {
	fn    *types.Func
	index int
}

// def is one assignment to a variable.
type def struct {
	pos   token.Pos
	val   ast.Expr      // x = val, x := val, var x = val
	tuple *ast.CallExpr // x, err := f(): result index of tuple
	index int
	// fn is the enclosing function declaration, nil at package level.
	fn *ast.FuncDecl
	// zero is var x T: the zero value, which later assignments define.
	zero bool
	// addr is &x: the variable may change behind the model's back.
	addr bool
	// bound is a function literal's parameter, bound by the call that
	// runs it (bindLiteral): the body sees that one value throughout.
	bound bool
}

// fieldStore is a value stored into a struct field, and the function that
// stores it (nil at package level). val is nil for a store from a tuple.
type fieldStore struct {
	val ast.Expr
	fn  *ast.FuncDecl
}

func newDefIndex(files []*ast.File, info *types.Info, pkg *types.Package) *defIndex {
	d := &defIndex{
		info:   info,
		pkg:    pkg,
		vars:   map[types.Object][]def{},
		fields: map[types.Object][]fieldStore{},
		shared: map[types.Object]bool{},
		elems:  map[types.Object][]fieldStore{},
		funcs:  map[types.Object]*ast.FuncDecl{},
		fills:  map[types.Object]TokenOrigin{},

		counters: map[types.Object]bool{},
		calls:    map[types.Object][]callSite{},
		uses:     map[types.Object]int{},
		params:   map[types.Object]param{},
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			fn, _ := decl.(*ast.FuncDecl)
			if fn != nil {
				if obj := info.Defs[fn.Name]; obj != nil {
					d.funcs[obj] = fn
					d.addParams(fn, obj)
				}
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				d.visit(n, fn)
				return true
			})
		}
	}
	return d
}

func (d *defIndex) add(id *ast.Ident, x def) {
	obj := d.info.ObjectOf(id)
	if obj == nil || id.Name == "_" {
		return
	}
	x.pos = id.Pos()
	d.vars[obj] = append(d.vars[obj], x)
}

func (d *defIndex) visit(n ast.Node, fn *ast.FuncDecl) {
	switch n := n.(type) {
	case *ast.FuncDecl, *ast.AssignStmt, *ast.ValueSpec:
		d.decls = append(d.decls, n)
	}
	switch n := n.(type) {
	case *ast.AssignStmt:
		var tuple *ast.CallExpr
		if len(n.Rhs) == 1 && len(n.Lhs) > 1 {
			tuple, _ = ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
		}
		for i, lhs := range n.Lhs {
			x := def{fn: fn}
			switch {
			case n.Tok != token.ASSIGN && n.Tok != token.DEFINE:
				// x += v: no single value.
			case len(n.Lhs) == len(n.Rhs):
				x.val = n.Rhs[i]
			case tuple != nil:
				x.tuple, x.index = tuple, i
			}
			switch l := ast.Unparen(lhs).(type) {
			case *ast.Ident:
				d.add(l, x)
			case *ast.SelectorExpr:
				if sel := d.info.Selections[l]; sel != nil && sel.Kind() == types.FieldVal {
					d.fields[sel.Obj()] = append(d.fields[sel.Obj()], fieldStore{val: x.val, fn: fn})
				}
			case *ast.IndexExpr:
				if id, ok := ast.Unparen(l.X).(*ast.Ident); ok {
					if obj := d.info.ObjectOf(id); obj != nil {
						d.elems[obj] = append(d.elems[obj], fieldStore{val: x.val, fn: fn})
					}
				}
				// s.f[i] = v: the field's elements change unseen.
				d.share(l.X)
			}
		}
	case *ast.ValueSpec:
		for i, id := range n.Names {
			x := def{fn: fn, zero: len(n.Values) == 0}
			switch {
			case len(n.Values) == len(n.Names):
				x.val = n.Values[i]
			case len(n.Values) == 1:
				x.tuple, _ = ast.Unparen(n.Values[0]).(*ast.CallExpr)
				x.index = i
			}
			d.add(id, x)
		}
	case *ast.IncDecStmt:
		if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
			d.add(id, def{fn: fn})
		}
		d.share(n.X)
	case *ast.SelectorExpr:
		if sel := d.info.Selections[n]; sel != nil && sel.Kind() == types.MethodVal {
			if sig, ok := sel.Obj().Type().(*types.Signature); ok && sig.Recv() != nil && isPointer(sig.Recv().Type()) && !isPointer(d.info.TypeOf(n.X)) {
				// s.f.Load(): the method gets &s.f.
				d.share(n.X)
			}
		}
	case *ast.RangeStmt:
		for _, e := range []ast.Expr{n.Key, n.Value} {
			if id, ok := e.(*ast.Ident); ok {
				d.add(id, def{fn: fn})
			}
		}
		if id, ok := n.Key.(*ast.Ident); ok && n.Tok == token.DEFINE {
			if t := d.info.TypeOf(n.X); t != nil && countsIndex(t) {
				d.counters[d.info.ObjectOf(id)] = true
			}
		}
	case *ast.ForStmt:
		if obj := d.counted(n); obj != nil {
			d.counters[obj] = true
		}
	case *ast.Ident:
		if obj, ok := d.info.Uses[n].(*types.Func); ok {
			d.uses[obj]++
		}
	case *ast.UnaryExpr:
		if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
			d.add(id, def{fn: fn, addr: true})
		}
		if n.Op == token.AND {
			d.share(n.X)
		}
	case *ast.CompositeLit:
		d.composite(n, fn)
	case *ast.CallExpr:
		d.bindLiteral(n, fn)
		d.fill(n)
		d.write(n, fn)
		if f, ok := typeutil.Callee(d.info, n).(*types.Func); ok && f.Pkg() == d.pkg {
			d.calls[f.Origin()] = append(d.calls[f.Origin()], callSite{n, fn})
		} else if ok && f.Pkg() != nil && f.Exported() {
			if sig := f.Type().(*types.Signature); sig.Recv() == nil && sig.Results().Len() > 0 && len(n.Args) > 0 {
				d.foreign = append(d.foreign, callSite{n, fn})
			}
		}
	}
}

// countsIndex reports a range whose key is an index: over an integer, a
// slice, an array or a pointer to one.
func countsIndex(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsInteger != 0
	case *types.Slice, *types.Array:
		return true
	}
	return false
}

// counted returns the variable of for i := c; cond; i++ (or i--, i += c,
// i -= c) with a constant start and step.
func (d *defIndex) counted(n *ast.ForStmt) types.Object {
	init, ok := n.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return nil
	}
	id, ok := init.Lhs[0].(*ast.Ident)
	if !ok || d.info.Types[init.Rhs[0]].Value == nil {
		return nil
	}
	obj := d.info.ObjectOf(id)
	var x ast.Expr
	switch post := n.Post.(type) {
	case *ast.IncDecStmt:
		x = post.X
	case *ast.AssignStmt:
		if (post.Tok != token.ADD_ASSIGN && post.Tok != token.SUB_ASSIGN) || len(post.Lhs) != 1 || d.info.Types[post.Rhs[0]].Value == nil {
			return nil
		}
		x = post.Lhs[0]
	default:
		return nil
	}
	if px, ok := ast.Unparen(x).(*ast.Ident); !ok || d.info.ObjectOf(px) != obj {
		return nil
	}
	return obj
}

// counter reports a loop counter that nothing but its loop changes.
func (d *defIndex) counter(obj types.Object) bool {
	if !d.counters[obj] {
		return false
	}
	for _, x := range d.vars[obj] {
		if x.addr {
			return false
		}
	}
	// The definition and the step of a for loop, or the range.
	return len(d.vars[obj]) <= 2
}

// addParams records the parameters of fn, but a variadic one.
func (d *defIndex) addParams(decl *ast.FuncDecl, obj types.Object) {
	fn, ok := obj.(*types.Func)
	if !ok {
		return
	}
	sig := fn.Type().(*types.Signature)
	for i := range sig.Params().Len() {
		if sig.Variadic() && i == sig.Params().Len()-1 {
			break
		}
		d.params[sig.Params().At(i)] = param{fn, i}
	}
}

// bindLiteral defines the parameters of a function literal called where
// it is written (go func(k string) { ... }(key)) by the arguments of
// that call, the one place they are given: k holds key. A spread call
// or a variadic parameter binds nothing past the fixed ones.
func (d *defIndex) bindLiteral(call *ast.CallExpr, fn *ast.FuncDecl) {
	lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit)
	if !ok || call.Ellipsis.IsValid() {
		return
	}
	sig, ok := d.info.TypeOf(lit).(*types.Signature)
	if !ok {
		return
	}
	i := 0
	for _, field := range lit.Type.Params.List {
		for _, id := range field.Names {
			if i >= len(call.Args) || (sig.Variadic() && i == sig.Params().Len()-1) {
				return
			}
			d.add(id, def{fn: fn, val: call.Args[i], bound: true})
			i++
		}
		if len(field.Names) == 0 {
			i++
		}
	}
}

// onlyCalled returns the calls of fn when it has some and is named
// nowhere else (not passed as a value, where the model cannot follow
// its calls); nil otherwise.
func (d *defIndex) onlyCalled(fn types.Object) []callSite {
	sites := d.calls[fn]
	if len(sites) == 0 || d.uses[fn] != len(sites) {
		return nil
	}
	return sites
}
