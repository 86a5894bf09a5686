package releasectx

// A release handed back to the caller: a lock function returns the
// function that gives the lock up, a closure over the context the
// acquire ran under. When the lock function made that context itself
// (WithTimeout, to bound the wait) and cancels it with a deferred
// cancel, every call of the returned release runs after the cancel.

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/internal/typesx"
)

// handOff is a release that a function returns: head is the release in
// a returned function literal, or the call of a function that returns
// one; ctx is the context it runs under, read in the returning function.
type handOff struct {
	head ast.Expr
	ctx  ast.Expr
	what string
	// call is true when head is a call of a function that returns the
	// release, rather than the release itself.
	call bool
}

// findBound returns the package's functions that return a release
// bound to one of their context parameters, with its index.
func (a *checker) findBound() map[*types.Func]int {
	bound := map[*types.Func]int{}
	// A lock function that returns another's release is found once that
	// one is: a few rounds cover the chains lock packages have.
	for range 4 {
		grew := false
		for _, d := range a.decls {
			fn, _ := a.pass.TypesInfo.Defs[d.Name].(*types.Func)
			if _, ok := bound[fn]; ok || fn == nil {
				continue
			}
			for _, h := range a.handOffs(d, bound) {
				if i, ok := a.paramIndex(d, fn, h.ctx); ok {
					bound[fn] = i
					grew = true
					break
				}
			}
		}
		if !grew {
			break
		}
	}
	return bound
}

// checkReturned reports releases returned by a function under a context
// that the function cancels on return.
func (a *checker) checkReturned() {
	for _, d := range a.decls {
		if !tests && a.m.InTestFile(d) {
			continue
		}
		for _, h := range a.handOffs(d, a.bound) {
			if at := a.cancelledOnReturn(d, h.ctx); at != nil {
				a.reportReturned(d, h, at)
			}
		}
	}
}

// handOffs returns the releases d returns: a function literal in a
// return statement (or in the one local that a return names) holding a
// release under a context of d's, or a call of a bound function whose
// result d returns the same ways.
func (a *checker) handOffs(d *ast.FuncDecl, bound map[*types.Func]int) []handOff {
	if d.Body == nil {
		return nil
	}
	info := a.pass.TypesInfo
	var out []handOff
	var fromValue func(e ast.Expr, depth int)
	fromValue = func(e ast.Expr, depth int) {
		switch x := ast.Unparen(e).(type) {
		case *ast.FuncLit:
			if h, ok := a.releaseIn(x); ok {
				out = append(out, h)
			}
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(info, x).(*types.Func)
			if fn == nil {
				return
			}
			i, ok := bound[fn.Origin()]
			if !ok && fn.Pkg() != a.pass.Pkg {
				i, ok = a.boundIndex(fn)
			}
			if ok && i < len(x.Args) && !x.Ellipsis.IsValid() {
				out = append(out, handOff{head: x, ctx: x.Args[i], what: diag.Code(a.pass.Fset, x.Fun), call: true})
			}
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			if v == nil || depth > 0 {
				return
			}
			if _, ok := v.Type().Underlying().(*types.Signature); !ok {
				return
			}
			as := assignments(info, d, v)
			if len(as) != 1 || as[0].rhs == nil {
				return
			}
			fromValue(as[0].rhs, depth+1)
		}
	}
	typesx.OutsideClosures(d.Body, func(n ast.Node) (bool, bool) {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok {
			return false, false
		}
		for _, r := range ret.Results {
			fromValue(r, 0)
		}
		return false, true
	})
	return out
}

// releaseIn returns the release in lit, a command or a releaser's call,
// whose context is a variable lit does not declare.
func (a *checker) releaseIn(lit *ast.FuncLit) (handOff, bool) {
	var h handOff
	found := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok {
			return !found
		}
		var ctx, head ast.Expr
		var what string
		if c := a.m.CallOf(call); c != nil {
			if c.Ctx == nil || !a.isRelease(c) {
				return true
			}
			ctx, head, what = c.Ctx, c.Expr, c.Command.String()
		} else {
			fn, _ := typeutil.Callee(a.pass.TypesInfo, call).(*types.Func)
			i, ok := a.releaser(fn)
			if !ok || i >= len(call.Args) || call.Ellipsis.IsValid() {
				return true
			}
			ctx, head, what = call.Args[i], call, diag.Code(a.pass.Fset, call.Fun)
		}
		if v := a.ctxVar(ctx); v == nil || within(lit, v.Pos()) {
			return true
		}
		h, found = handOff{head: head, ctx: ctx, what: what}, true
		return false
	})
	return h, found
}

// paramIndex returns the index of ctx among fn's parameters, when ctx is
// one that d never reassigns.
func (a *checker) paramIndex(d *ast.FuncDecl, fn *types.Func, ctx ast.Expr) (int, bool) {
	v := a.ctxVar(ctx)
	if v == nil || len(assignments(a.pass.TypesInfo, d, v)) > 0 && !derivedOnly(a.pass.TypesInfo, d, v) {
		return 0, false
	}
	ps := fn.Type().(*types.Signature).Params()
	for i := range ps.Len() {
		if ps.At(i) == v {
			return i, true
		}
	}
	return 0, false
}

// derivedOnly reports whether every assignment of v, a context
// parameter of d, derives it from itself: ctx, span :=
// tracer.Start(ctx, name), ctx = log.WithContext(ctx, l). Such a context
// is done when the caller's is. context.WithoutCancel and helpers named
// for detaching are not derivations.
func derivedOnly(info *types.Info, d *ast.FuncDecl, v *types.Var) bool {
	for _, as := range assignments(info, d, v) {
		if as.call == nil || as.index != 0 || len(as.call.Args) == 0 {
			return false
		}
		if id, ok := ast.Unparen(as.call.Args[0]).(*ast.Ident); !ok || info.Uses[id] != v {
			return false
		}
		fn, _ := typeutil.Callee(info, as.call).(*types.Func)
		if fn == nil {
			return false
		}
		res := fn.Type().(*types.Signature).Results()
		if res.Len() == 0 || !ctxType(res.At(0).Type()) {
			return false
		}
		n := strings.ToLower(fn.Name())
		if strings.Contains(n, "withoutcancel") || strings.Contains(n, "detach") || strings.Contains(n, "background") {
			return false
		}
	}
	return true
}

// cancelledOnReturn returns the `defer cancel()` of d, outside closures,
// that cancels ctx, a local d makes once with WithTimeout, WithDeadline
// or WithCancel.
func (a *checker) cancelledOnReturn(d *ast.FuncDecl, ctx ast.Expr) *ast.DeferStmt {
	info := a.pass.TypesInfo
	cancel := a.madeCancel(d, ctx)
	if cancel == nil {
		return nil
	}
	var found *ast.DeferStmt
	typesx.OutsideClosures(d.Body, func(n ast.Node) (bool, bool) {
		ds, ok := n.(*ast.DeferStmt)
		if !ok {
			return false, false
		}
		if f, ok := ast.Unparen(ds.Call.Fun).(*ast.Ident); ok && len(ds.Call.Args) == 0 && info.Uses[f] == cancel {
			found = ds
		}
		return found != nil, true
	})
	return found
}

// reportReturned says which release is handed out and which defer has
// cancelled its context by the time it can run.
func (a *checker) reportReturned(d *ast.FuncDecl, h handOff, at *ast.DeferStmt) {
	fset := a.pass.Fset
	what := h.what + " in the returned release"
	if h.call {
		what = "the release " + h.what + " hands back"
	}
	diag.Report(a.pass, analysis.Diagnostic{
		Pos: h.head.Pos(), End: h.head.End(),
		Message: fmt.Sprintf("%s runs under %s, cancelled when %s returns (line %d), so the lock stays until its TTL; release under `context.WithoutCancel` with a timeout",
			what, diag.Code(fset, h.ctx), diag.Quote(d.Name.Name), diag.Line(fset, at.Pos())),
	})
}
