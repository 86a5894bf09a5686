package releasectx

// A release deferred under a context parameter. The function says
// nothing of when that context ends, and stays silent; its callers do.
// A handler that passes its request's context to a service method that
// defers its lock's release under it has that release run after the
// work, under a context the client may have ended.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

// Defers is the fact that a function defers a lock release, its own or
// a callee's, under its context parameter Ctx, or, when Field is set,
// under the context its receiver keeps in that field (a go-zero logic
// struct's l.ctx); At is the release's file and line, for the report at
// a caller in another package.
type Defers struct {
	Ctx   int
	Field string
	At    string
}

func (*Defers) AFact()                     {}
func (*Defers) Scope() lockmodel.FactScope { return lockmodel.ClientScope }
func (d *Defers) String() string {
	if d.Field != "" {
		return fmt.Sprintf("defers a release under field %s at %s", d.Field, d.At)
	}
	return fmt.Sprintf("defers a release under parameter %d at %s", d.Ctx, d.At)
}

// maxDeferDepth bounds how many of the package's own layers a deferred
// release is followed up through, each a call that passes the context
// parameter on.
const maxDeferDepth = 4

// findDeferrers records the package's functions that defer a release
// under a context parameter never reassigned: the release itself, or
// the release a bound function handed back (unlock, err :=
// s.lock(ctx, id); defer unlock()), and then, layer by layer, the
// functions that pass their own context parameter to one of those.
func (a *checker) findDeferrers(files []*ast.File) {
	for _, f := range files {
		if a.m.InTestFile(f) {
			continue
		}
		walk(f, func(stack []ast.Node, call *ast.CallExpr) {
			r, ok := a.releaseCall(stack, call)
			if !ok {
				return
			}
			s := atExit(stack, r.carrier)
			if s == nil || s.deferFn != s.decl {
				return
			}
			if a.classify(s, r.ctx, 0).kind == unknown && !a.recordDeferrer(s.decl, r.ctx, r.head.Pos(), "") {
				a.recordFieldDeferrer(s, r.ctx, r.head.Pos())
			}
		})
	}
	for _, d := range a.decls {
		if d.Body == nil || a.m.InTestFile(d) {
			continue
		}
		typesx.OutsideClosures(d.Body, func(n ast.Node) (bool, bool) {
			ds, ok := n.(*ast.DeferStmt)
			if !ok {
				return false, false
			}
			if h, ok := a.handedBack(d, ds.Call); ok {
				a.recordDeferrer(d, h.ctx, ds.Call.Pos(), "")
			}
			return false, true
		})
	}
	impls := a.singleImpls()
	byInterface := func() (grew bool) {
		for _, p := range impls {
			d, ok := a.deferrer(p.impl)
			if ok && d.Field != "" {
				// The interface's method has no receiver to keep it.
				continue
			}
			if _, done := a.deferrers[p.method]; ok && !done {
				a.deferrers[p.method] = d
				a.export(p.method, d)
				grew = true
			}
		}
		return grew
	}
	byInterface()
	for range maxDeferDepth {
		grew := false
		for _, d := range a.decls {
			fn, _ := a.pass.TypesInfo.Defs[d.Name].(*types.Func)
			if _, done := a.deferrers[fn]; done || d.Body == nil || a.m.InTestFile(d) {
				continue
			}
			typesx.OutsideClosures(d.Body, func(n ast.Node) (bool, bool) {
				switch n := n.(type) {
				case *ast.GoStmt:
					return false, true
				case *ast.CallExpr:
					callee, _ := typeutil.Callee(a.pass.TypesInfo, n).(*types.Func)
					if df, ok := a.deferrer(callee); ok && df.Field == "" && fixedArg(n, df.Ctx) {
						if a.recordDeferrer(d, n.Args[df.Ctx], token.NoPos, df.At) {
							grew = true
							return true, false
						}
					}
					if field := a.fieldDeferrers[callee]; field != nil && onReceiver(a.pass.TypesInfo, d, n) {
						a.recordFieldVia(d, field, a.deferrers[callee].At)
						grew = true
						return true, false
					}
				}
				return false, false
			})
		}
		if !byInterface() && !grew {
			break
		}
	}
	fields := map[*types.Var]bool{}
	for _, f := range a.fieldDeferrers {
		fields[f] = true
	}
	a.findMakers(fields, true)
}

// recordFieldDeferrer makes s.decl a deferrer when ctx is a context field
// of its receiver: the field's value is the one its maker was given.
func (a *checker) recordFieldDeferrer(s *site, ctx ast.Expr, at token.Pos) {
	fn, _ := a.pass.TypesInfo.Defs[s.decl.Name].(*types.Func)
	if fn == nil {
		return
	}
	if _, done := a.deferrers[fn]; done {
		return
	}
	field := receiverField(a.pass.TypesInfo, s.decl, s, ctx, 0)
	if field == nil {
		return
	}
	p := a.pass.Fset.Position(at)
	a.setFieldDeferrer(fn, field, fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line))
}

// recordFieldVia makes decl a deferrer under field because it calls,
// on its own receiver, a method that defers a release under that field
// (l.GetCount calls l.rebuildCacheWithLock, which defers the release
// under l.ctx): the context is still the one the maker kept.
func (a *checker) recordFieldVia(decl *ast.FuncDecl, field *types.Var, at string) {
	fn, _ := a.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if fn == nil {
		return
	}
	a.setFieldDeferrer(fn, field, at)
}

// setFieldDeferrer records fn as deferring a release under field, the
// defer at at, and exports it.
func (a *checker) setFieldDeferrer(fn *types.Func, field *types.Var, at string) {
	d := &Defers{Field: field.Name(), At: at}
	a.deferrers[fn] = d
	a.fieldDeferrers[fn] = field
	a.export(fn, d)
}

// onReceiver reports whether call is a method call on decl's own
// receiver (l.m(...) in a method of l).
func onReceiver(info *types.Info, decl *ast.FuncDecl, call *ast.CallExpr) bool {
	if decl.Recv == nil || len(decl.Recv.List) != 1 || len(decl.Recv.List[0].Names) != 1 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && info.Uses[x] != nil && info.Uses[x] == info.Defs[decl.Recv.List[0].Names[0]]
}

// handedBack returns the release that call runs when call calls a local
// that holds what a bound function returned: unlock in unlock, err :=
// s.lock(ctx, id).
func (a *checker) handedBack(d *ast.FuncDecl, call *ast.CallExpr) (handOff, bool) {
	info := a.pass.TypesInfo
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || len(call.Args) > 0 {
		return handOff{}, false
	}
	v, _ := info.Uses[id].(*types.Var)
	if v == nil {
		return handOff{}, false
	}
	as := realAssignments(info, d, v)
	// unlock := func() {}; if enabled { u, ... := s.lock(ctx); unlock = u }
	for hops := 0; len(as) == 1 && as[0].call == nil && hops < 3; hops++ {
		id, ok := ast.Unparen(as[0].rhs).(*ast.Ident)
		if !ok {
			break
		}
		w, _ := info.Uses[id].(*types.Var)
		if w == nil || w == v {
			break
		}
		as = realAssignments(info, d, w)
	}
	if len(as) != 1 || as[0].call == nil || as[0].index != 0 {
		return handOff{}, false
	}
	mk := as[0].call
	fn, _ := typeutil.Callee(info, mk).(*types.Func)
	if fn == nil {
		return handOff{}, false
	}
	i, ok := a.bound[fn.Origin()]
	if !ok || i >= len(mk.Args) || mk.Ellipsis.IsValid() {
		return handOff{}, false
	}
	return handOff{head: mk, ctx: mk.Args[i], what: diag.Code(a.pass.Fset, mk.Fun), call: true}, true
}

// realAssignments are v's assignments in decl but those of a function
// literal that does nothing: the no-op a release variable holds until
// the lock is taken.
func realAssignments(info *types.Info, decl *ast.FuncDecl, v *types.Var) []assignment {
	var out []assignment
	for _, a := range assignments(info, decl, v) {
		if lit, ok := ast.Unparen(a.rhs).(*ast.FuncLit); ok && a.call == nil && len(lit.Body.List) == 0 {
			continue
		}
		out = append(out, a)
	}
	return out
}

// recordDeferrer makes decl a deferrer when ctx is one of its context
// parameters, never reassigned; at is the release's position in this
// package, or atText where it lies in a callee's. It reports whether
// decl was recorded.
func (a *checker) recordDeferrer(decl *ast.FuncDecl, ctx ast.Expr, at token.Pos, atText string) bool {
	fn, _ := a.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if fn == nil {
		return false
	}
	prev, done := a.deferrers[fn]
	if done && !at.IsValid() {
		return false
	}
	i, ok := a.paramIndex(decl, fn, ctx)
	if !ok || !ctxType(fn.Type().(*types.Signature).Params().At(i).Type()) {
		return false
	}
	if at.IsValid() {
		p := a.pass.Fset.Position(at)
		atText = fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
	}
	if done {
		// A second release deferred under the same parameter (two locks
		// taken in turn) stays until its TTL just as the first: the
		// report names both.
		if prev.Field == "" && prev.Ctx == i && !slices.Contains(strings.Split(prev.At, ", "), atText) {
			prev.At += ", " + atText
			a.export(fn, prev)
		}
		return false
	}
	d := &Defers{Ctx: i, At: atText}
	a.deferrers[fn] = d
	a.export(fn, d)
	return true
}

// deferrer returns what is known of fn deferring a release under a
// context parameter, of this package or, through its fact, of another.
func (a *checker) deferrer(fn *types.Func) (*Defers, bool) {
	if fn == nil || fn.Pkg() == nil || lockmodel.InLibrary(fn) {
		return nil, false
	}
	fn = fn.Origin()
	if fn.Pkg() == a.pass.Pkg {
		d, ok := a.deferrers[fn]
		return d, ok
	}
	var d Defers
	if a.pass.ImportObjectFact(fn, &d) {
		return &d, true
	}
	return nil, false
}

// checkDeferrerCall reports a call of a deferrer whose context the
// caller knows may be done when the deferred release runs: a request's,
// a gRPC handler's, or a timeout the call runs under.
func (a *checker) checkDeferrerCall(stack []ast.Node, call *ast.CallExpr) {
	fn, _ := typeutil.Callee(a.pass.TypesInfo, call).(*types.Func)
	df, ok := a.deferrer(fn)
	if !ok || df.Field == "" && !fixedArg(call, df.Ctx) {
		return
	}
	s := &site{call: call, work: true, decl: enclosingDecl(stack)}
	if s.decl == nil {
		return
	}
	var ctx ast.Expr
	kept := ""
	if df.Field != "" {
		if ctx = a.keptCtx(s.decl, call, fn, df.Field); ctx == nil {
			return
		}
		kept = " under field " + df.Field
	} else {
		ctx = call.Args[df.Ctx]
	}
	o := a.classify(s, ctx, 0)
	switch o.kind {
	case request, rpc, timeout:
	default:
		return
	}
	release, lock, its := deferredWords(df)
	diag.Report(a.pass, analysis.Diagnostic{
		Pos: call.Fun.Pos(), End: call.Fun.End(),
		Message: fmt.Sprintf("%s defers %s%s (%s): %s, so the %s may stay until %s TTL",
			diag.Code(a.pass.Fset, call.Fun), release, kept, df.At, a.why(s, o, ctx), lock, its),
	})
}

// deferredWords says what a deferrer's report names: one deferred
// release, or several (At lists them).
func deferredWords(d *Defers) (release, lock, its string) {
	if strings.Contains(d.At, ", ") {
		return "its locks' releases", "locks", "their"
	}
	return "its lock's release", "lock", "its"
}

// ctxType reports whether t is context.Context or an interface that
// embeds it (a database driver's session context, mongo.SessionContext):
// a value that ends when the context it was made from ends.
func ctxType(t types.Type) bool {
	if typesx.IsContext(t) {
		return true
	}
	_, ok := t.Underlying().(*types.Interface)
	return ok && typesx.HasContextMethods(t)
}

// fixedArg reports whether call's argument i is the one its callee's
// parameter i receives: before any spread slice (f(ctx, id, fields...)).
func fixedArg(call *ast.CallExpr, i int) bool {
	return i < len(call.Args) && (!call.Ellipsis.IsValid() || i < len(call.Args)-1)
}
