package releasectx

// A release bound to a context cancelled before it runs: the acquire is
// given a context of its own (a short WithTimeout, to bound the wait),
// its cancel is called right after the acquire, and the release it hands
// back, a closure over that context, runs later: always after the
// cancel, so it fails without being sent and the lock stays until its
// TTL.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

// Binds is the fact that a function returns a release bound to its
// context parameter Ctx (a lock's acquire that hands back its unlock).
type Binds struct{ Ctx int }

func (*Binds) AFact()                     {}
func (*Binds) Scope() lockmodel.FactScope { return lockmodel.ClientScope }
func (b *Binds) String() string {
	return fmt.Sprintf("hands back a release bound to parameter %d", b.Ctx)
}

// exportBound exports Binds for the package's exported bound functions.
func (a *checker) exportBound() {
	for fn, i := range a.bound {
		if fn.Exported() {
			a.pass.ExportObjectFact(fn, &Binds{Ctx: i})
		}
	}
}

// boundIndex returns the index of the context parameter that fn's
// returned release is bound to: a function of this package (findBound)
// or of another (a Binds fact).
func (a *checker) boundIndex(fn *types.Func) (int, bool) {
	if fn == nil {
		return 0, false
	}
	fn = fn.Origin()
	if i, ok := a.bound[fn]; ok {
		return i, true
	}
	var b Binds
	if fn.Pkg() != a.pass.Pkg && a.pass.ImportObjectFact(fn, &b) {
		return b.Ctx, true
	}
	return 0, false
}

// checkCancelledFirst reports, in d, the call of a bound function given
// a context d makes with WithTimeout, WithDeadline or WithCancel, whose
// cancel d calls (not defers) after the call, where the release the call
// hands back is called or deferred after that cancel.
func (a *checker) checkCancelledFirst(d *ast.FuncDecl) {
	if d.Body == nil {
		return
	}
	info := a.pass.TypesInfo
	typesx.OutsideClosures(d.Body, func(n ast.Node) (bool, bool) {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			return false, false
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			return false, false
		}
		i, ok := a.boundIndex(typeutil.StaticCallee(info, call))
		if !ok || i >= len(call.Args) || call.Ellipsis.IsValid() {
			return false, false
		}
		rel, _ := info.ObjectOf(namedIdentOf(as.Lhs[0])).(*types.Var)
		cancel := a.madeCancel(d, call.Args[i])
		if rel == nil || cancel == nil {
			return false, false
		}
		at := cancelCall(info, d.Body, cancel, call.End())
		if at == nil || !usedAfter(info, d.Body, rel, at.End()) {
			return false, false
		}
		fset := a.pass.Fset
		diag.Report(a.pass, analysis.Diagnostic{
			Pos: call.Pos(), End: call.End(),
			Message: fmt.Sprintf("the release %s hands back runs under %s, cancelled on line %d before it runs, so the lock stays until its TTL; release under `context.WithoutCancel` with a timeout",
				diag.Code(fset, call.Fun), diag.Code(fset, call.Args[i]), diag.Line(fset, at.Pos())),
		})
		return false, false
	})
}

// madeCancel returns the cancel function of ctx, a local that d makes
// once with WithTimeout, WithDeadline or WithCancel; nil otherwise.
func (a *checker) madeCancel(d *ast.FuncDecl, ctx ast.Expr) *types.Var {
	info := a.pass.TypesInfo
	v := a.ctxVar(ctx)
	if v == nil {
		return nil
	}
	as := assignments(info, d, v)
	if len(as) != 1 || as[0].call == nil || as[0].index != 0 || as[0].cancel == nil {
		return nil
	}
	fn, _ := typeutil.Callee(info, as[0].call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != contextPath {
		return nil
	}
	if k := contextFuncs[fn.Name()]; k != ctxTimeout && k != ctxCancel {
		return nil
	}
	return as[0].cancel
}

// cancelCall returns the first statement of body, outside closures and
// after pos, that calls cancel itself (cancel(), not deferred).
func cancelCall(info *types.Info, body *ast.BlockStmt, cancel *types.Var, pos token.Pos) *ast.ExprStmt {
	var found *ast.ExprStmt
	typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.DeferStmt, *ast.GoStmt:
			return false, true
		case *ast.ExprStmt:
			call, ok := ast.Unparen(n.X).(*ast.CallExpr)
			if !ok || n.Pos() < pos || len(call.Args) != 0 {
				return false, false
			}
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && info.Uses[id] == cancel && (found == nil || n.Pos() < found.Pos()) {
				found = n
			}
		}
		return false, false
	})
	return found
}

// usedAfter reports whether rel, a release variable, is read after pos
// in body (called, deferred, or in a deferred literal).
func usedAfter(info *types.Info, body *ast.BlockStmt, rel *types.Var, pos token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Pos() > pos && info.Uses[id] == rel {
			found = true
		}
		return !found
	})
	return found
}

// namedIdentOf returns e as an identifier, or nil.
func namedIdentOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}
