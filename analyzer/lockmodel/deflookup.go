package lockmodel

// What the definition index answers: a variable's one definition, a
// function's callers, the values stored into a field, and whether a
// variable is assigned between two places.

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"slices"

	"golang.org/x/tools/go/types/typeutil"
)

// callers returns every call of fn in the package, or false when fn is
// also named elsewhere (passed as a value, or exported, so that callers
// may be out of sight).
func (d *defIndex) callers(fn *types.Func) ([]callSite, bool) { return d.calledOnly(fn, false) }

// calledOnly is callers, for methods too when methods is set: an
// unexported method that no interface of the package declares cannot be
// called through one, so its calls are all in sight as well.
func (d *defIndex) calledOnly(fn *types.Func, methods bool) ([]callSite, bool) {
	calls := d.calls[fn]
	method := fn.Type().(*types.Signature).Recv() != nil
	if fn.Exported() || method && (!methods || d.declaredByInterface(fn.Name())) || len(calls) == 0 || d.uses[fn] != len(calls) {
		return nil, false
	}
	return calls, true
}

// interfaceCalls returns the calls of the methods of the package's
// interfaces that fn, a method of the package, implements.
func (m *Model) interfaceCalls(fn *types.Func) []callSite {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || types.IsInterface(sig.Recv().Type()) {
		return nil
	}
	var out []callSite
	for iface := range interfacesOf(m.Pass.Pkg) {
		for i := range iface.NumMethods() {
			im := iface.Method(i)
			if im.Name() == fn.Name() && slices.Contains(m.implementations(im), fn) {
				out = append(out, m.defs.calls[im]...)
			}
		}
	}
	return out
}

// interfacesOf yields the interface types pkg declares at package level.
func interfacesOf(pkg *types.Package) iter.Seq[*types.Interface] {
	return func(yield func(*types.Interface) bool) {
		scope := pkg.Scope()
		for _, n := range scope.Names() {
			tn, ok := scope.Lookup(n).(*types.TypeName)
			if !ok {
				continue
			}
			if iface, ok := tn.Type().Underlying().(*types.Interface); ok && !yield(iface) {
				return
			}
		}
	}
}

// declaredByInterface reports whether an interface type of the package
// has a method named name.
func (d *defIndex) declaredByInterface(name string) bool {
	for iface := range interfacesOf(d.pkg) {
		for i := range iface.NumMethods() {
			if iface.Method(i).Name() == name {
				return true
			}
		}
	}
	return false
}

// assigns returns the positions of every assignment to obj, var x T
// included. A literal's bound parameter has none: it holds one value
// from the start of the body that reads it.
func (d *defIndex) assigns(obj types.Object) []token.Pos {
	var out []token.Pos
	for _, x := range d.vars[obj] {
		if !x.addr && !x.bound {
			out = append(out, x.pos)
		}
	}
	return out
}

// assignedBetween reports whether a variable that e reads is assigned
// strictly between positions pa and pb, in either order: e then names
// another value at one of them.
func (d *defIndex) assignedBetween(e ast.Expr, pa, pb token.Pos) bool {
	lo, hi := min(pa, pb), max(pa, pb)
	changed := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := d.info.ObjectOf(id); obj != nil {
				for _, p := range d.assigns(obj) {
					if p > lo && p < hi {
						changed = true
					}
				}
			}
		}
		return !changed
	})
	return changed
}

// only returns the one definition of obj: var x T aside, it is assigned
// exactly once and its address is never taken. The definition may carry
// no value (x++, a range variable).
func (d *defIndex) only(obj types.Object) (def, bool) {
	var found def
	n := 0
	for _, x := range d.vars[obj] {
		switch {
		case x.addr:
			return def{}, false
		case !x.zero:
			found = x
			n++
		}
	}
	return found, n == 1
}

// value returns the expression that obj's one definition assigns, or nil.
func (d *defIndex) value(obj types.Object) ast.Expr {
	if x, ok := d.only(obj); ok {
		return x.val
	}
	return nil
}

// values returns the expressions that obj's definitions assign, when
// each definition assigns one (var x T aside) and its address is never
// taken; nil otherwise.
func (d *defIndex) values(obj types.Object) []ast.Expr {
	var out []ast.Expr
	for _, x := range d.vars[obj] {
		switch {
		case x.addr:
			return nil
		case x.zero:
		case x.val == nil:
			return nil
		default:
			out = append(out, x.val)
		}
	}
	return out
}

// initial returns the definition of a package-level variable in its
// declaration (var x = v, or var x T).
func (d *defIndex) initial(v *types.Var) (def, bool) {
	for _, x := range d.vars[v] {
		if x.fn == nil && !x.addr {
			return x, true
		}
	}
	return def{}, false
}

// changedLater reports whether a function that may run more than once per
// process assigns the package-level variable v or takes its address.
func (d *defIndex) changedLater(v *types.Var, runsOnce func(*ast.FuncDecl) bool) bool {
	for _, x := range d.vars[v] {
		if x.fn != nil && !runsOnce(x.fn) {
			return true
		}
	}
	return false
}

// fieldValues returns the expressions stored into field; stores from a
// tuple carry none.
func (d *defIndex) fieldValues(field types.Object) []ast.Expr {
	var out []ast.Expr
	for _, s := range d.fields[field] {
		if s.val != nil {
			out = append(out, s.val)
		}
	}
	return out
}

// fieldValue returns the one expression ever stored into field, or nil.
func (d *defIndex) fieldValue(field types.Object) ast.Expr {
	if s := d.fields[field]; len(s) == 1 {
		return s[0].val
	}
	return nil
}

// returned returns fn's declaration and the one expression it returns,
// when fn is a function of the package whose body is only that return
// (func nxArgs() redis.SetArgs { return redis.SetArgs{Mode: "NX"} }).
func (d *defIndex) returned(fn *types.Func) (*ast.FuncDecl, ast.Expr) {
	decl := d.funcs[fn]
	if decl == nil || decl.Body == nil || len(decl.Body.List) != 1 {
		return nil, nil
	}
	ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil, nil
	}
	return decl, ret.Results[0]
}

// appended returns what a slice, a local variable or a struct field, ever
// receives: the elements of each append(s, e, ...) stored back into it,
// with the function that stores them. Only the package can fill it: an
// unexported field of its own types, or a local that is no parameter. Stores that add nothing (nil, an
// empty literal, make, a re-slice of s, append(s[:i], s[i+1:]...)) are
// allowed; any other store, an element store or a shared address leaves
// the elements unknown (false).
func (d *defIndex) appended(obj types.Object) ([]fieldStore, bool) {
	v, ok := obj.(*types.Var)
	if !ok {
		return nil, false
	}
	var stores []fieldStore
	switch {
	case v.IsField():
		// Another package may fill an exported field, or a field of its
		// own type.
		if d.shared[v] || v.Exported() || v.Pkg() != d.pkg {
			return nil, false
		}
		stores = d.fields[v]
	case v.Kind() == types.ParamVar || v.Kind() == types.RecvVar:
		// The caller's slice comes with the caller's elements.
		return nil, false
	case v.Parent() == nil || v.Parent() == d.pkg.Scope() || len(d.elems[v]) > 0:
		return nil, false
	default:
		for _, x := range d.vars[v] {
			if x.addr || x.tuple != nil || x.val == nil && !x.zero {
				return nil, false
			}
			if x.val != nil {
				stores = append(stores, fieldStore{val: x.val, fn: x.fn})
			}
		}
	}
	self := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if s, ok := e.(*ast.SliceExpr); ok {
			e = ast.Unparen(s.X)
		}
		switch e := e.(type) {
		case *ast.Ident:
			return d.info.Uses[e] == obj
		case *ast.SelectorExpr:
			sel := d.info.Selections[e]
			return sel != nil && sel.Obj() == obj
		}
		return false
	}
	var out []fieldStore
	for _, s := range stores {
		switch val := ast.Unparen(s.val).(type) {
		case *ast.CompositeLit:
			if len(val.Elts) > 0 {
				return nil, false
			}
		case *ast.SliceExpr:
			if !self(val) {
				return nil, false
			}
		case *ast.Ident:
			if !d.info.Types[val].IsNil() {
				return nil, false
			}
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(d.info, val).(*types.Builtin)
			switch {
			case fn == nil:
				return nil, false
			case fn.Name() == "make":
			case fn.Name() == "append" && len(val.Args) > 0 && self(val.Args[0]):
				elems := val.Args[1:]
				if val.Ellipsis.IsValid() {
					if !self(elems[len(elems)-1]) {
						return nil, false
					}
					elems = elems[:len(elems)-1]
				}
				for _, e := range elems {
					out = append(out, fieldStore{val: e, fn: s.fn})
				}
			default:
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return out, true
}
