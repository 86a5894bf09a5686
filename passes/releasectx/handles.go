package releasectx

// A lock handle that keeps the acquire's context: lock(ctx, key) returns
// &lock{ctx: ctx, ...}, and (*lock).unlock releases under l.ctx. A
// deferred l.unlock() runs under the context that the handle's maker was
// given, as a releaser's call runs under its argument.

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// handleMaker is a function that stores its context parameter param in
// field of the handle it returns.
type handleMaker struct {
	param int
	field *types.Var
}

// findHandles records the package's methods that release under a context
// field of their receiver (handleReleasers), and the functions that
// return a handle with one of their context parameters in that field
// (handleMakers).
func (a *checker) findHandles() {
	info := a.pass.TypesInfo
	for _, c := range a.m.Calls {
		d := c.Decl
		if d == nil || d.Recv == nil || c.Func != d || c.Deferred || c.Ctx == nil || !a.isRelease(c) {
			continue
		}
		sel, ok := ast.Unparen(c.Ctx).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		s := info.Selections[sel]
		recv, ok := ast.Unparen(sel.X).(*ast.Ident)
		if s == nil || s.Kind() != types.FieldVal || !ok || len(d.Recv.List) != 1 || len(d.Recv.List[0].Names) != 1 ||
			info.Uses[recv] != info.Defs[d.Recv.List[0].Names[0]] {
			continue
		}
		fn, _ := info.Defs[d.Name].(*types.Func)
		field, _ := s.Obj().(*types.Var)
		if fn != nil && field != nil {
			a.handleReleasers[fn] = field
		}
	}
	if len(a.handleReleasers) == 0 {
		return
	}
	fields := map[*types.Var]bool{}
	for _, f := range a.handleReleasers {
		fields[f] = true
	}
	for _, d := range a.decls {
		fn, _ := info.Defs[d.Name].(*types.Func)
		if fn == nil || d.Body == nil {
			continue
		}
		ast.Inspect(d.Body, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			for _, e := range lit.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				key, _ := kv.Key.(*ast.Ident)
				field, _ := info.Uses[key].(*types.Var)
				if key == nil || !fields[field] || !returnsType(fn, info.TypeOf(lit)) {
					continue
				}
				if i, ok := a.paramIndex(d, fn, kv.Value); ok && typesx.IsContext(info.TypeOf(kv.Value)) {
					a.handleMakers[fn] = handleMaker{param: i, field: field}
				}
			}
			return true
		})
	}
}

// returnsType reports whether a result of fn is t or a pointer to t.
func returnsType(fn *types.Func, t types.Type) bool {
	res := fn.Type().(*types.Signature).Results()
	for i := range res.Len() {
		r := res.At(i).Type()
		if p, ok := r.(*types.Pointer); ok {
			r = p.Elem()
		}
		if types.Identical(r, t) {
			return true
		}
	}
	return false
}

// handleCtx returns, for call, a call h.m() of a handle releaser, the
// context that the one assignment of h in decl gave the handle's maker.
func (a *checker) handleCtx(decl *ast.FuncDecl, call *ast.CallExpr, fn *types.Func) ast.Expr {
	field, ok := a.handleReleasers[fn]
	if !ok || decl == nil {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := a.pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil {
		return nil
	}
	// A declaration with no value (var l *lock) leaves the handle nil
	// until its one assignment.
	var as []assignment
	for _, x := range assignments(a.pass.TypesInfo, decl, v) {
		// The entry assignments adds for an unreadable one (pos unset)
		// stands for the others kept here.
		if x.rhs != nil || x.pos.IsValid() && !zeroDecl(decl, x.pos) {
			as = append(as, x)
		}
	}
	if len(as) != 1 || as[0].call == nil {
		return nil
	}
	maker, _ := typeutil.Callee(a.pass.TypesInfo, as[0].call).(*types.Func)
	hm, ok := a.handleMakers[maker]
	if !ok || hm.field != field || hm.param >= len(as[0].call.Args) || as[0].call.Ellipsis.IsValid() {
		return nil
	}
	return as[0].call.Args[hm.param]
}

// zeroDecl reports whether a value spec with no values starts at pos in
// decl.
func zeroDecl(decl *ast.FuncDecl, pos token.Pos) bool {
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok && vs.Pos() == pos && len(vs.Values) == 0 {
			found = true
		}
		return !found
	})
	return found
}

// enclosingDecl returns the function declaration in stack, outermost
// first, or nil.
func enclosingDecl(stack []ast.Node) *ast.FuncDecl {
	for _, n := range stack {
		if d, ok := n.(*ast.FuncDecl); ok {
			return d
		}
	}
	return nil
}
