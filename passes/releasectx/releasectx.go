package releasectx

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/edit"
	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
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
	FactTypes: []analysis.Fact{(*Releaser)(nil)},
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
}

func run(pass *analysis.Pass) (any, error) {
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	if !m.Relevant() {
		return nil, nil
	}
	a := &checker{pass: pass, m: m, releasers: map[*types.Func]int{}}
	a.findReleasers()
	for _, f := range pass.Files {
		if !tests && m.InTestFile(f) {
			continue
		}
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			if call, ok := n.(*ast.CallExpr); ok {
				a.visit(stack, call)
			}
			return true
		})
	}
	return nil, nil
}

// isRelease reports whether c gives up a lock: a DEL of a lock key, an
// owner-checked DELEX, or a script that deletes one of its KEYS.
func (a *checker) isRelease(c *lockmodel.Call) bool {
	if c.Via != nil && lockmodel.InLibrary(c.Via) {
		return false
	}
	switch {
	case c.Command.IsDelete():
		for _, k := range c.Keys {
			if a.m.IsLockKey(c, k) {
				return true
			}
		}
	case c.Command == lockmodel.CmdDelEx:
		return c.Flags&lockmodel.FlagIFEQ != 0
	case c.Command == lockmodel.CmdEval:
		text, ok := a.m.ScriptText(c)
		if !ok {
			return false
		}
		for _, w := range lockmodel.LuaCalls(text.Text) {
			if w.Removes() && w.Key() > 0 {
				return true
			}
		}
	}
	return false
}

// findReleasers records the package's functions that release a lock
// under a context parameter, passed on as it is and never reassigned,
// outside closures and defers: a call of one is a release under the
// caller's context. A known lock library's release (redsync's
// UnlockContext) is such a release too, and so is a method of the
// package's own interface whose one implementation here releases.
func (a *checker) findReleasers() {
	for _, c := range a.m.Calls {
		if c.Decl == nil || c.Func != c.Decl || c.Deferred || c.Ctx == nil || !a.isRelease(c) {
			continue
		}
		a.record(c.Decl, c.Ctx)
	}
	a.libraryReleasers()
	a.interfaceReleasers()
}

// record makes decl a releaser when ctx, the context its release runs
// under, is one of its parameters and never reassigned.
func (a *checker) record(decl *ast.FuncDecl, ctx ast.Expr) {
	info := a.pass.TypesInfo
	id, ok := ast.Unparen(ctx).(*ast.Ident)
	if !ok {
		return
	}
	v, _ := info.Uses[id].(*types.Var)
	fn, _ := info.Defs[decl.Name].(*types.Func)
	if v == nil || fn == nil || len(assignments(info, decl, v)) > 0 {
		return
	}
	ps := fn.Type().(*types.Signature).Params()
	for i := range ps.Len() {
		if ps.At(i) == v {
			a.releasers[fn] = i
			a.pass.ExportObjectFact(fn, &Releaser{Ctx: i})
		}
	}
}

// releaser returns the context parameter of fn when it is a releaser, of
// this package or, through its fact, of another. The lock library is
// none: its releases ignore the caller's cancellation.
func (a *checker) releaser(fn *types.Func) (int, bool) {
	if i, ok := lockmodel.ReleasesUnder(fn); ok {
		return i, true
	}
	if fn == nil || fn.Pkg() == nil || lockmodel.InLibrary(fn) {
		return 0, false
	}
	fn = fn.Origin()
	if fn.Pkg() == a.pass.Pkg {
		i, ok := a.releasers[fn]
		return i, ok
	}
	var r Releaser
	if a.pass.ImportObjectFact(fn, &r) {
		return r.Ctx, true
	}
	return 0, false
}

// visit looks at one call: a release sent under a context, or a call of
// a releaser.
func (a *checker) visit(stack []ast.Node, call *ast.CallExpr) {
	var (
		ctx, head ast.Expr
		carrier   *ast.CallExpr
		what      string
		cmd       *lockmodel.Call
	)
	if c := a.m.CallOf(call); c != nil {
		if c.Ctx == nil || !a.isRelease(c) {
			return
		}
		// The call that takes the context: the command's own, or, for a
		// rueidis command built apart, the Do around the builder.
		switch {
		case argOf(call, c.Ctx):
			carrier = call
		case len(stack) >= 2:
			if p, ok := stack[len(stack)-2].(*ast.CallExpr); ok && argOf(p, c.Ctx) {
				carrier = p
			}
		}
		ctx, head, what = c.Ctx, c.Expr, c.Command.String()
		cmd = c
	} else {
		fn, _ := typeutil.Callee(a.pass.TypesInfo, call).(*types.Func)
		i, ok := a.releaser(fn)
		if !ok || i >= len(call.Args) || call.Ellipsis.IsValid() {
			return
		}
		carrier, ctx, head, what = call, call.Args[i], call, diag.Code(a.pass.Fset, call.Fun)
	}
	if carrier == nil {
		return
	}
	s := atExit(stack, carrier)
	if s == nil {
		return
	}
	o := a.classify(s, ctx, 0)
	if o.kind == unknown || o.kind == live {
		return
	}
	a.report(s, o, ctx, head, what, cmd)
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
	fset := a.pass.Fset
	code := diag.Code(fset, ctx)
	var why string
	switch o.kind {
	case request:
		why = fmt.Sprintf("%s is the request's (%s), cancelled when the client disconnects", code, diag.Code(fset, o.at))
	case rpc:
		why = fmt.Sprintf("%s is gRPC handler %s's, cancelled with the call", code, diag.Quote(s.decl.Name.Name))
	case timeout:
		why = fmt.Sprintf("%s expires with the work's timeout (line %d)", code, diag.Line(fset, o.at.Pos()))
	case cancelFirst:
		why = fmt.Sprintf("%s is cancelled first by the defer on line %d", code, diag.Line(fset, o.at.Pos()))
	}
	d := analysis.Diagnostic{
		Pos: head.Pos(), End: head.End(),
		Message: fmt.Sprintf("deferred %s: %s, so the lock may stay until its TTL; release under `context.WithoutCancel` with a timeout",
			what, why),
	}
	if fix, ok := a.fix(s, ctx); ok && !a.toLibrary(c) {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	diag.Report(a.pass, d)
}

// toLibrary reports whether c is a delete whose token the model knows:
// unconditionaldel's fix rewrites it into the library's Release, which
// ignores the caller's cancellation, and two fixes of one call conflict.
func (a *checker) toLibrary(c *lockmodel.Call) bool {
	if c == nil || !c.Command.IsDelete() || len(c.Keys) != 1 {
		return false
	}
	_, token := a.m.AcquiredToken(c, c.Keys[0])
	return token != ""
}

// releaseTimeout is the bound the fix gives the release.
const releaseTimeout = "2*time.Second"

// fix runs the release under context.WithoutCancel(ctx) with a timeout of
// its own. A deferred call becomes a deferred closure, which evaluates
// its arguments at exit rather than at the defer, so every variable the
// call reads must keep its value after the defer; in a deferred closure
// the context is made before the statement of the release.
func (a *checker) fix(s *site, ctx ast.Expr) (analysis.SuggestedFix, bool) {
	file := a.fileOf(s.call)
	if file == nil {
		return analysis.SuggestedFix{}, false
	}
	tf := a.pass.Fset.File(s.call.Pos())
	src, err := a.pass.ReadFile(tf.Name())
	if err != nil {
		return analysis.SuggestedFix{}, false
	}
	text := func(n ast.Node) string { return string(src[tf.Offset(n.Pos()):tf.Offset(n.End())]) }
	indent := func(n ast.Node) string {
		off := tf.Offset(n.Pos())
		start := off
		for start > 0 && src[start-1] != '\n' {
			start--
		}
		ws := src[start:off]
		if strings.TrimLeft(string(ws), " \t") != "" {
			return ""
		}
		return string(ws)
	}
	// The call with the release's context in place of ctx.
	call := text(s.call)
	rel := func(name string) string {
		off := tf.Offset(ctx.Pos()) - tf.Offset(s.call.Pos())
		end := tf.Offset(ctx.End()) - tf.Offset(s.call.Pos())
		return call[:off] + name + call[end:]
	}
	decl := func(names []string, rctx, cancel, ind string) string {
		return fmt.Sprintf("%s, %s := %s.WithTimeout(%s.WithoutCancel(%s), %s)\n%sdefer %s()\n",
			rctx, cancel, names[0], names[0], text(ctx), strings.Replace(releaseTimeout, "time", names[1], 1), ind, cancel)
	}
	title := "Release under context.WithoutCancel with a timeout of its own"
	if s.lit == nil {
		ind := indent(s.deferStmt)
		if ind == "" && tf.Offset(s.deferStmt.Pos()) > 0 || !a.stable(s, s.call) {
			return analysis.SuggestedFix{}, false
		}
		rctx, cancel, ok := names(func(name string) bool { return !mentions(s.call, name) })
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		imports, edits, ok := edit.Import(a.pass, file, s.deferStmt.Pos(), contextPath, "time")
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		body := ind + "\t" + decl(imports, rctx, cancel, ind+"\t") + ind + "\t" + rel(rctx) + "\n"
		edits = append([]analysis.TextEdit{{Pos: s.deferStmt.Pos(), End: s.deferStmt.End(),
			NewText: []byte("defer func() {\n" + body + ind + "}()")}}, edits...)
		return analysis.SuggestedFix{Message: title, TextEdits: edits}, true
	}
	stmt, block := a.stmtIn(s)
	if stmt == nil {
		return analysis.SuggestedFix{}, false
	}
	ind := indent(stmt)
	if ind == "" {
		return analysis.SuggestedFix{}, false
	}
	scope := a.pass.TypesInfo.Scopes[block]
	rctx, cancel, ok := names(func(name string) bool {
		if scope != nil && scope.Lookup(name) != nil {
			return false
		}
		for _, n := range block.List {
			if n.End() > stmt.Pos() && mentions(n, name) {
				return false
			}
		}
		return true
	})
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	imports, edits, ok := edit.Import(a.pass, file, stmt.Pos(), contextPath, "time")
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	edits = append([]analysis.TextEdit{
		{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(decl(imports, rctx, cancel, ind) + ind)},
		{Pos: ctx.Pos(), End: ctx.End(), NewText: []byte(rctx)},
	}, edits...)
	return analysis.SuggestedFix{Message: title, TextEdits: edits}, true
}

// names picks the names of the release's context and cancel function
// among a few, the first that ok accepts.
func names(ok func(string) bool) (rctx, cancel string, found bool) {
	pick := func(cands ...string) string {
		for _, c := range cands {
			if ok(c) {
				return c
			}
		}
		return ""
	}
	rctx, cancel = pick("rctx", "releaseCtx"), pick("cancel", "releaseCancel")
	return rctx, cancel, rctx != "" && cancel != ""
}

// mentions reports whether an identifier spelled name appears in n.
func mentions(n ast.Node, name string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// stable reports whether every local variable call reads keeps its value
// from the defer to the function's end: no assignment to it after the
// defer, and no closure that could assign it.
func (a *checker) stable(s *site, call *ast.CallExpr) bool {
	info := a.pass.TypesInfo
	vars := map[*types.Var]bool{}
	typesx.OutsideClosures(call, func(n ast.Node) (bool, bool) {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() && v.Parent() != nil && v.Parent() != a.pass.Pkg.Scope() {
				vars[v] = true
			}
		}
		return false, false
	})
	for v := range vars {
		for _, asg := range assignments(info, s.decl, v) {
			if asg.pos > s.deferStmt.Pos() || asg.rhs == nil {
				return false
			}
		}
	}
	return true
}

// stmtIn returns the statement of the deferred literal's body, in a
// block, before which the release's context is made: the one that holds
// the release call, or the innermost if or switch whose header holds it.
// A call in a loop's header runs more than once and gets no fix.
func (a *checker) stmtIn(s *site) (ast.Stmt, *ast.BlockStmt) {
	pos := s.call.Pos()
	block := s.lit.Body
	for {
		var st ast.Stmt
		for _, x := range block.List {
			if within(x, pos) {
				st = x
			}
		}
		var inner *ast.BlockStmt
		switch x := st.(type) {
		case nil:
			return nil, nil
		case *ast.BlockStmt:
			inner = x
		case *ast.IfStmt:
			if pos < x.Body.Pos() {
				return x, block
			}
			inner = x.Body
			if !within(x.Body, pos) {
				if b, ok := x.Else.(*ast.BlockStmt); ok {
					inner = b
				} else {
					return nil, nil
				}
			}
		case *ast.SwitchStmt:
			if pos < x.Body.Pos() {
				return x, block
			}
			return nil, nil
		case *ast.ForStmt:
			if pos < x.Body.Pos() {
				return nil, nil
			}
			inner = x.Body
		case *ast.RangeStmt:
			if pos < x.Body.Pos() {
				return nil, nil
			}
			inner = x.Body
		case *ast.LabeledStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			return nil, nil
		default:
			return st, block
		}
		block = inner
	}
}

func (a *checker) fileOf(n ast.Node) *ast.File {
	for _, f := range a.pass.Files {
		if f.FileStart <= n.Pos() && n.Pos() <= f.FileEnd {
			return f
		}
	}
	return nil
}
