package releasectx

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/lockmodel"
)

//go:embed doc.go
var doc string

// Analyzer reports lock releases deferred under a context that may be
// done by the time they run.
var Analyzer = &analysis.Analyzer{
	Name:      "releasectx",
	Doc:       diag.Doc(doc),
	URL:       "https://github.com/locklint/locklint/blob/main/docs/analyzers/releasectx.md",
	Requires:  []*analysis.Analyzer{lockmodel.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{(*Releaser)(nil), (*Defers)(nil), (*Keeps)(nil), (*Binds)(nil)},
}

var tests bool

func init() {
	Analyzer.Flags.BoolVar(&tests, "tests", false, "also report releases in _test.go files")
}

// Releaser is the fact that a function releases a lock under the context
// it is given, its parameter Ctx: a wrapper's Unlock(ctx).
type Releaser struct{ Ctx int }

func (*Releaser) AFact()                     {}
func (*Releaser) Scope() lockmodel.FactScope { return lockmodel.ClientScope }
func (r *Releaser) String() string           { return fmt.Sprintf("releases under parameter %d", r.Ctx) }

type checker struct {
	pass      *analysis.Pass
	m         *lockmodel.Model
	releasers map[*types.Func]int
	// bound are the functions that return a release bound to their
	// context parameter (returned.go); deferrers those that defer one
	// under it (deferrers.go).
	bound     map[*types.Func]int
	deferrers map[*types.Func]*Defers
	// handleReleasers release under a context field of their receiver;
	// handleMakers return a handle holding their context there
	// (handles.go).
	handleReleasers map[*types.Func]*types.Var
	handleMakers    map[*types.Func]handleMaker
	// fieldDeferrers defer a release under a context field of their
	// receiver (deferrers.go).
	fieldDeferrers map[*types.Func]*types.Var
	decls          []*ast.FuncDecl
	impls          *[]implPair
	sets           *[]implSet
}

func run(pass *analysis.Pass) (any, error) {
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	if !m.Relevant() {
		return nil, nil
	}
	a := &checker{pass: pass, m: m, releasers: map[*types.Func]int{}, deferrers: map[*types.Func]*Defers{},
		handleReleasers: map[*types.Func]*types.Var{}, handleMakers: map[*types.Func]handleMaker{},
		fieldDeferrers: map[*types.Func]*types.Var{}}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				a.decls = append(a.decls, fd)
			}
		}
	}
	a.findReleasers()
	a.findHandles()
	a.bound = a.findBound()
	a.exportBound()
	a.findDeferrers(pass.Files)
	for _, f := range pass.Files {
		if !tests && m.InTestFile(f) {
			continue
		}
		walk(f, func(stack []ast.Node, call *ast.CallExpr) {
			a.visit(stack, call)
			a.checkDeferrerCall(stack, call)
		})
	}
	a.checkReturned()
	for _, d := range a.decls {
		if tests || !m.InTestFile(d) {
			a.checkCancelledFirst(d)
		}
	}
	return nil, nil
}

// walk calls visit for each call in f, with the nodes that enclose it.
func walk(f *ast.File, visit func(stack []ast.Node, call *ast.CallExpr)) {
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if call, ok := n.(*ast.CallExpr); ok {
			visit(stack, call)
		}
		return true
	})
}

// release is a release call as visit and findDeferrers see it: the call
// that takes the context (carrier), the context, the expression to
// report and what to call it; cmd is the command, or nil for a
// releaser's call.
type release struct {
	carrier   *ast.CallExpr
	ctx, head ast.Expr
	what      string
	cmd       *lockmodel.Call
}

// releaseCall returns the release call is: a release command sent under
// a context, or a call of a releaser.
func (a *checker) releaseCall(stack []ast.Node, call *ast.CallExpr) (release, bool) {
	if c := a.m.CallOf(call); c != nil {
		if c.Ctx == nil || !a.isRelease(c) {
			return release{}, false
		}
		r := release{ctx: c.Ctx, head: c.Expr, what: c.Command.String(), cmd: c}
		// The call that takes the context: the command's own, or, for a
		// rueidis command built apart, the Do around the builder.
		switch {
		case argOf(call, c.Ctx):
			r.carrier = call
		case len(stack) >= 2:
			if p, ok := stack[len(stack)-2].(*ast.CallExpr); ok && argOf(p, c.Ctx) {
				r.carrier = p
			}
		}
		return r, r.carrier != nil
	}
	fn, _ := typeutil.Callee(a.pass.TypesInfo, call).(*types.Func)
	if ctx := a.handleCtx(enclosingDecl(stack), call, fn); ctx != nil {
		return release{carrier: call, ctx: ctx, head: call, what: diag.Code(a.pass.Fset, call.Fun)}, true
	}
	i, ok := a.releaser(fn)
	if !ok || i >= len(call.Args) || call.Ellipsis.IsValid() {
		return release{}, false
	}
	return release{carrier: call, ctx: call.Args[i], head: call, what: diag.Code(a.pass.Fset, call.Fun)}, true
}

// visit looks at one call: a release sent under a context, or a call of
// a releaser.
func (a *checker) visit(stack []ast.Node, call *ast.CallExpr) {
	r, ok := a.releaseCall(stack, call)
	if !ok {
		return
	}
	s := atExit(stack, r.carrier)
	if s == nil {
		if branch := a.doneBranch(stack, r.carrier, r.ctx); branch != nil {
			a.reportDone(branch, r.ctx, r.head, r.what)
		}
		return
	}
	o := a.classify(s, r.ctx, 0)
	if o.kind == unknown || o.kind == live {
		return
	}
	a.report(s, o, r.ctx, r.head, r.what, r.cmd)
}

func argOf(call *ast.CallExpr, e ast.Expr) bool {
	for _, x := range call.Args {
		if x == e {
			return true
		}
	}
	return false
}

// atExit returns the site of carrier, a call in stack, when it runs at
// function exit: deferred itself, or in a deferred function literal; nil
// otherwise. A release that runs after the work in straight-line code
// runs while a context cancelled by a deferred cancel is still live.
func atExit(stack []ast.Node, carrier *ast.CallExpr) *site {
	at := -1
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == carrier {
			at = i
			break
		}
	}
	if at < 1 {
		return nil
	}
	s := &site{call: carrier}
	for _, n := range stack {
		if d, ok := n.(*ast.FuncDecl); ok {
			s.decl = d
			break
		}
	}
	if s.decl == nil {
		return nil
	}
	innerFn := func(below int) ast.Node {
		for i := below - 1; i >= 0; i-- {
			switch stack[i].(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				return stack[i]
			}
		}
		return nil
	}
	if d, ok := stack[at-1].(*ast.DeferStmt); ok && d.Call == carrier {
		s.deferStmt, s.deferFn = d, innerFn(at-1)
		return s
	}
	// The innermost function around the call must be a literal that a
	// defer statement calls: defer func() { ... }().
	for i := at - 1; i >= 2; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncDecl:
			return nil
		case *ast.FuncLit:
			call, ok := stack[i-1].(*ast.CallExpr)
			if !ok || call.Fun != n {
				return nil
			}
			d, ok := stack[i-2].(*ast.DeferStmt)
			if !ok || d.Call != call {
				return nil
			}
			s.deferStmt, s.deferFn, s.lit = d, innerFn(i-2), n
			return s
		}
	}
	return nil
}

// report says where the context comes from and why it is done when the
// release runs. Why a failed release leaves the lock until its TTL, and
// what WithoutCancel keeps, is the doc's.
func (a *checker) report(s *site, o origin, ctx, head ast.Expr, what string, c *lockmodel.Call) {
	d := analysis.Diagnostic{
		Pos: head.Pos(), End: head.End(),
		Message: fmt.Sprintf("deferred %s: %s, so the lock may stay until its TTL; release under `context.WithoutCancel` with a timeout",
			what, a.why(s, o, ctx)),
	}
	if fix, ok := a.fix(s, ctx); ok && !a.toLibrary(c) {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	diag.Report(a.pass, d)
}

// why says where ctx comes from and why it is done when the release
// runs.
func (a *checker) why(s *site, o origin, ctx ast.Expr) string {
	fset := a.pass.Fset
	code := diag.Code(fset, ctx)
	switch o.kind {
	case request:
		if at := diag.Code(fset, o.at); at != code {
			return fmt.Sprintf("%s is the request's (%s), cancelled when the client disconnects", code, at)
		}
		return fmt.Sprintf("%s is the request's, cancelled when the client disconnects", code)
	case rpc:
		return fmt.Sprintf("%s is gRPC handler %s's, cancelled with the call", code, diag.Quote(s.decl.Name.Name))
	case timeout:
		return fmt.Sprintf("%s expires with the work's timeout (line %d)", code, diag.Line(fset, o.at.Pos()))
	case cancelFirst:
		return fmt.Sprintf("%s is cancelled first by the defer on line %d", code, diag.Line(fset, o.at.Pos()))
	}
	return code
}

// reportDone reports a release in a branch that runs once its context is
// done: the client fails it at once.
func (a *checker) reportDone(branch ast.Node, ctx, head ast.Expr, what string) {
	fset := a.pass.Fset
	diag.Report(a.pass, analysis.Diagnostic{
		Pos: head.Pos(), End: head.End(),
		Message: fmt.Sprintf("%s under %s in the branch where %s is done (line %d): the client fails it at once, so the lock may stay until its TTL; release under `context.WithoutCancel` with a timeout",
			what, diag.Code(fset, ctx), diag.Code(fset, ctx), diag.Line(fset, branch.Pos())),
	})
}

// toLibrary reports whether c is a delete whose token the model knows:
// unconditionaldel's fix rewrites it into the library's Release, which
// ignores the caller's cancellation, and two fixes of one call conflict.
func (a *checker) toLibrary(c *lockmodel.Call) bool {
	if c == nil || !c.Command.IsDelete() || len(c.Keys) != 1 {
		return false
	}
	return a.m.ReleaseToken(c, c.Keys[0]) != ""
}
