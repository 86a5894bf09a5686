package releasectx

// A lock handle that keeps the acquire's context: lock(ctx, key) returns
// &lock{ctx: ctx, ...}, and (*lock).unlock releases under l.ctx. A
// deferred l.unlock() runs under the context that the handle's maker was
// given, as a releaser's call runs under its argument.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

// handleMaker is a function that stores its context parameter param in
// field of the handle it returns.
type handleMaker struct {
	param int
	field *types.Var
}

// Keeps is the fact that a function returns a handle that keeps its
// context parameter Param in the field named Field: a go-zero logic
// struct's constructor, NewXLogic(ctx, svcCtx), for the methods that
// defer a release under l.ctx (a Defers with Field set).
type Keeps struct {
	Param int
	Field string
}

func (*Keeps) AFact()                     {}
func (*Keeps) Scope() lockmodel.FactScope { return lockmodel.ClientScope }
func (k *Keeps) String() string {
	return fmt.Sprintf("keeps parameter %d in field %s", k.Param, k.Field)
}

// findHandles records the package's methods that release under a context
// field of their receiver (handleReleasers), and the functions that
// return a handle with one of their context parameters in that field
// (handleMakers).
func (a *checker) findHandles() {
	info := a.pass.TypesInfo
	for _, c := range a.m.Calls {
		d := c.Decl
		if d == nil || d.Recv == nil || c.Func != d || c.Deferred || c.Ctx == nil {
			continue
		}
		// The field first: it is cheap, and most releases are under a
		// parameter.
		field := receiverField(info, d, nil, c.Ctx, 0)
		if field == nil || !a.isRelease(c) {
			continue
		}
		if fn, _ := info.Defs[d.Name].(*types.Func); fn != nil {
			a.handleReleasers[fn] = field
		}
	}
	fields := map[*types.Var]bool{}
	for _, f := range a.handleReleasers {
		fields[f] = true
	}
	a.findMakers(fields, false)
}

// findMakers records the functions that return a handle with one of
// their context parameters in one of fields, and exports the fact when
// export is set.
func (a *checker) findMakers(fields map[*types.Var]bool, export bool) {
	if len(fields) == 0 {
		return
	}
	info := a.pass.TypesInfo
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
					if export {
						a.export(fn, &Keeps{Param: i, Field: field.Name()})
					}
				}
			}
			return true
		})
	}
}

// receiverField returns the context field of decl's receiver that e
// reads: recv.f itself, a local whose one assignment is recv.f, or a
// parameter of lit, the function literal that call calls, given recv.f.
func receiverField(info *types.Info, decl *ast.FuncDecl, s *site, e ast.Expr, hops int) *types.Var {
	if hops > 2 || decl.Recv == nil || len(decl.Recv.List) != 1 || len(decl.Recv.List[0].Names) != 1 {
		return nil
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		sel := info.Selections[x]
		recv, ok := ast.Unparen(x.X).(*ast.Ident)
		if sel == nil || sel.Kind() != types.FieldVal || !ok || info.Uses[recv] != info.Defs[decl.Recv.List[0].Names[0]] {
			return nil
		}
		f, _ := sel.Obj().(*types.Var)
		if f == nil || !typesx.IsContext(f.Type()) {
			return nil
		}
		return f
	case *ast.Ident:
		v, _ := info.Uses[x].(*types.Var)
		if v == nil || v.IsField() {
			return nil
		}
		if s != nil && s.lit != nil && s.deferStmt.Call.Fun == s.lit && !s.deferStmt.Call.Ellipsis.IsValid() {
			// defer func(ctx context.Context) { ... }(l.ctx)
			i := 0
			for _, fld := range s.lit.Type.Params.List {
				for _, name := range fld.Names {
					if info.Defs[name] == v && i < len(s.deferStmt.Call.Args) {
						return receiverField(info, decl, s, s.deferStmt.Call.Args[i], hops+1)
					}
					i++
				}
				if len(fld.Names) == 0 {
					i++
				}
			}
		}
		as := assignments(info, decl, v)
		if len(as) != 1 || as[0].rhs == nil || as[0].call != nil {
			return nil
		}
		return receiverField(info, decl, s, as[0].rhs, hops+1)
	}
	return nil
}

// returnsType reports whether a result of fn is t or a pointer to t.
func returnsType(fn *types.Func, t types.Type) bool {
	res := fn.Type().(*types.Signature).Results()
	for i := range res.Len() {
		if types.Identical(deref(res.At(i).Type()), t) {
			return true
		}
	}
	return false
}

// handleCtx returns, for call, a call h.m() of a handle releaser, the
// context that h's maker was given.
func (a *checker) handleCtx(decl *ast.FuncDecl, call *ast.CallExpr, fn *types.Func) ast.Expr {
	field, ok := a.handleReleasers[fn]
	if !ok {
		return nil
	}
	mk := a.makerCall(decl, call)
	if mk == nil {
		return nil
	}
	maker, _ := typeutil.Callee(a.pass.TypesInfo, mk).(*types.Func)
	hm, ok := a.handleMakers[maker]
	if !ok || hm.field != field || hm.param >= len(mk.Args) || mk.Ellipsis.IsValid() {
		return nil
	}
	return mk.Args[hm.param]
}

// keptCtx returns, for call, a call h.m() of fn, a method that defers
// its release under the context h keeps in field, the context h's maker
// was given.
func (a *checker) keptCtx(decl *ast.FuncDecl, call *ast.CallExpr, fn *types.Func, field string) ast.Expr {
	mk := a.makerCall(decl, call)
	if mk == nil || mk.Ellipsis.IsValid() {
		return nil
	}
	maker, _ := typeutil.Callee(a.pass.TypesInfo, mk).(*types.Func)
	if maker == nil || maker.Pkg() == nil {
		return nil
	}
	var k Keeps
	if hm, ok := a.handleMakers[maker]; ok && maker.Pkg() == a.pass.Pkg {
		k = Keeps{Param: hm.param, Field: hm.field.Name()}
	} else if maker.Pkg() == a.pass.Pkg || !a.pass.ImportObjectFact(maker, &k) {
		return nil
	}
	recv := fn.Type().(*types.Signature).Recv()
	if k.Field != field || k.Param >= len(mk.Args) || recv == nil || !returnsType(maker, deref(recv.Type())) {
		return nil
	}
	return mk.Args[k.Param]
}

func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// makerCall returns the call that made h, for call, a call h.m(): the
// one assignment of h in decl (a declaration with no value, var l
// *lock, leaves it nil until then), or h itself when it is a call.
func (a *checker) makerCall(decl *ast.FuncDecl, call *ast.CallExpr) *ast.CallExpr {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	switch x := ast.Unparen(sel.X).(type) {
	case *ast.CallExpr:
		return x
	case *ast.Ident:
		v, _ := a.pass.TypesInfo.Uses[x].(*types.Var)
		if v == nil || decl == nil {
			return nil
		}
		var as []assignment
		for _, as1 := range assignments(a.pass.TypesInfo, decl, v) {
			// The entry assignments adds for an unreadable one (pos unset)
			// stands for the others kept here.
			if as1.rhs != nil || as1.pos.IsValid() && !zeroDecl(decl, as1.pos) {
				as = append(as, as1)
			}
		}
		if len(as) != 1 {
			return nil
		}
		if as[0].call != nil {
			return as[0].call
		}
		mk, _ := ast.Unparen(as[0].rhs).(*ast.CallExpr)
		return mk
	}
	return nil
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
