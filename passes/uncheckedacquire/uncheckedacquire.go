package uncheckedacquire

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

//go:embed doc.go
var doc string

// Analyzer reports lock acquires whose result is not checked before the
// work they guard.
var Analyzer = &analysis.Analyzer{
	Name:     "uncheckedacquire",
	Doc:      diag.Doc(doc),
	URL:      "https://github.com/locklint/locklint/blob/main/docs/analyzers/uncheckedacquire.md",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run:      run,
}

var tests bool

func init() {
	Analyzer.Flags.BoolVar(&tests, "tests", false, "also report acquires in _test.go files")
}

func run(pass *analysis.Pass) (any, error) {
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	if !m.Relevant() {
		return nil, nil
	}
	for _, c := range m.Calls {
		// A queued acquire's reply comes with the batch's; a deferred one
		// guards nothing.
		if !c.Acquires() || c.Queued || c.Deferred || c.Func == nil || (!tests && m.IsTestFile(c)) {
			continue
		}
		checkAcquire(pass, m, c)
	}
	for _, call := range m.Obtains() {
		if !tests && m.InTestFile(call) {
			continue
		}
		checkObtain(pass, m, call)
	}
	checkTakers(pass, m)
	checkThin(pass, m)
	return nil, nil
}

// checkTakers reports the calls of take helpers (lockmodel's Taker, of
// this package or another) where the function then works and releases
// through a helper that deletes (lockmodel's Drops) with the same
// argument: a call that drops the bool, so that take, work and release
// run whether or not the take succeeded; a test that returns when the
// lock was taken, so that the work runs when another holds it; and a
// reply whose test lets a miss fall through into the work.
func checkTakers(pass *analysis.Pass, m *lockmodel.Model) {
	takers := map[*types.Func]bool{}
	taker := func(fn *types.Func) bool {
		t, ok := takers[fn]
		if !ok {
			t = m.Taker(fn)
			takers[fn] = t
		}
		return t
	}
	for _, file := range pass.Files {
		if !tests && m.InTestFile(file) {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
			if fn == nil || !taker(fn) {
				return true
			}
			path, _ := astutil.PathEnclosingInterval(file, call.Pos(), call.End())
			if len(path) < 3 {
				return true
			}
			parents := path[1:]
			report := func(format string, args ...any) {
				diag.Report(pass, analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Message: fmt.Sprintf(format, args...)})
			}
			name := diag.Code(pass.Fset, call.Fun)
			switch p := parents[0].(type) {
			case *ast.ExprStmt:
				if workAfter(pass.TypesInfo, parents[1:], p.End()) && (releasedAfter(pass.TypesInfo, parents, call, m.Drops) || m.GivenBackElsewhere(fn)) {
					report("result of %s discarded: the code after it runs whether or not the lock was taken; return when it is not taken", diag.Quote(fn.Name()))
				}
				return true
			case *ast.IfStmt:
				if p.Cond == ast.Expr(call) && returnsOnly(p) && workAfter(pass.TypesInfo, parents[1:], p.End()) && releasedAfter(pass.TypesInfo, parents, call, m.Drops) {
					report("the test of %s is inverted: it returns when the lock is taken, and the work after it runs while another holds the lock; return when it is not taken", name)
				}
				return true
			}
			if m.ThinAcquire(fn) != nil {
				// checkThin reads it as the acquire it returns.
				return true
			}
			checkTestedReply(pass, m, file, call, parents, name)
			return true
		})
	}
}

// checkTestedReply reports a take call whose reply is kept in a
// variable, where its function then works and releases with one of the
// call's arguments (or on its handle), and the reply's tests let the
// work run without the lock (reportIgnored). acq names the take.
func checkTestedReply(pass *analysis.Pass, m *lockmodel.Model, file *ast.File, call *ast.CallExpr, parents []ast.Node, acq string) {
	rc := receive(pass.TypesInfo, call, parents)
	if rc.elsewhere || rc.reply == nil || rc.returned || !workAfter(pass.TypesInfo, parents, call.End()) ||
		!releasedAfter(pass.TypesInfo, parents, call, m.Drops) {
		return
	}
	fnNode, _ := enclosingFunc(parents)
	if fnNode == nil {
		return
	}
	reportIgnored(pass, m, file, call, rc.reply, reads(pass.TypesInfo, fnNode, rc.reply), acq)
}

// returnsOnly reports whether ifs has no else and its body is a return
// statement alone: the branch leaves with nothing done.
func returnsOnly(ifs *ast.IfStmt) bool {
	if ifs.Else != nil || len(ifs.Body.List) != 1 {
		return false
	}
	_, ok := ifs.Body.List[0].(*ast.ReturnStmt)
	return ok
}

// releasedAfter reports whether the function around call (path leads
// from call's statement outwards) calls a releaser after call, deferred
// or not, with an argument that is one of call's.
func releasedAfter(info *types.Info, path []ast.Node, call *ast.CallExpr, releases func(*types.Func) bool) bool {
	_, body := enclosingFunc(path)
	if body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		rel, ok := n.(*ast.CallExpr)
		if found || !ok || rel.Pos() <= call.End() {
			return !found
		}
		fn, _ := typeutil.Callee(info, rel).(*types.Func)
		if fn == nil || !releases(fn) {
			return true
		}
		for _, a := range rel.Args {
			for _, b := range call.Args {
				if sameArg(info, a, b) {
					found = true
				}
			}
		}
		// A handle's methods: l.Lock(ctx) and l.Unlock(ctx) on one l, or
		// on the parameter a deferred literal is given l for.
		if ra, cb := handleOf(info, rel), handleOf(info, call); ra != nil && cb != nil && (ra == cb || boundTo(info, body, ra) == cb) {
			found = true
		}
		return !found
	})
	return found
}

// handleOf returns the variable whose method call calls (l in l.Lock()),
// or nil.
func handleOf(info *types.Info, call *ast.CallExpr) *types.Var {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	return v
}

// boundTo returns, for v a parameter of a function literal that body
// calls where it is written (defer func(l *Lock) { l.Unlock() }(lock)),
// the variable passed for it, or nil.
func boundTo(info *types.Info, body *ast.BlockStmt, v *types.Var) *types.Var {
	var out *types.Var
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || out != nil {
			return out == nil
		}
		lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit)
		if !ok || call.Ellipsis.IsValid() {
			return true
		}
		i := 0
		for _, f := range lit.Type.Params.List {
			for _, name := range f.Names {
				if info.Defs[name] == v && i < len(call.Args) {
					if id, ok := ast.Unparen(call.Args[i]).(*ast.Ident); ok {
						out, _ = info.Uses[id].(*types.Var)
					}
				}
				i++
			}
			if len(f.Names) == 0 {
				i++
			}
		}
		return out == nil
	})
	return out
}

// enclosingFunc returns the innermost function declaration or literal
// on path (which leads outwards) and its body; nil when there is none.
func enclosingFunc(path []ast.Node) (ast.Node, *ast.BlockStmt) {
	for _, n := range path {
		switch f := n.(type) {
		case *ast.FuncDecl:
			return f, f.Body
		case *ast.FuncLit:
			return f, f.Body
		}
	}
	return nil, nil
}

// missWords says what a lost acquire gives, for a message.
func missWords(c *lockmodel.Call, miss lockmodel.Miss) string {
	if miss == lockmodel.MissNilReply {
		return "a nil reply"
	}
	if c.Command == lockmodel.CmdEval {
		return "0"
	}
	return "false (0)"
}

func checkAcquire(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call) {
	r, parents := m.Reply(c)
	rc := receive(pass.TypesInfo, r, parents)
	if rc.elsewhere || rc.reply != nil && namedResult(pass.TypesInfo, rc.reply, c.Decl, c.Func) {
		// A named result goes back to the caller, who decides.
		return
	}
	key := c.Key()
	if key == nil || !m.IsLockKey(c, key) {
		return
	}
	acq := lockmodel.AcquireName(c)
	use := diag.Use(m.Library(c), "Obtain")
	miss := m.Miss(c)
	if rc.returned {
		reportHelper(pass, m, c, r, parents, miss)
		return
	}
	if rc.err != nil && rc.reply == nil && !rc.replyAny && miss.InReply() {
		if name, ok := errAsTaken(pass.TypesInfo, c.Func, rc.err); ok {
			diag.Report(pass, analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Message: fmt.Sprintf(
				"%s returns whether the error of %s is nil, and a held lock gives %s and no error, so its callers proceed; return whether it was taken",
				name, acq, missWords(c, miss))})
			return
		}
	}
	if !workAfter(pass.TypesInfo, parents, r.End()) {
		return
	}
	report := func(format string, args ...any) {
		diag.Report(pass, analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Message: fmt.Sprintf(format, args...)})
	}
	var replyReads []*ast.Ident
	if rc.reply != nil {
		replyReads = reads(pass.TypesInfo, c.Func, rc.reply)
	}
	ignored := func() bool {
		return reportIgnored(pass, m, c.File, c.Expr, rc.reply, replyReads, acq)
	}
	if !m.Held(c) {
		// The package does not see the key deleted (a store's Unlock in
		// another package), but this function releases it afterwards.
		if rc.reply != nil && releasedAfter(pass.TypesInfo, parents, c.Expr, m.Drops) {
			ignored()
		}
		return
	}
	errRead := rc.err != nil && len(reads(pass.TypesInfo, c.Func, rc.err)) > 0
	switch {
	case rc.discarded:
		report("result of %s discarded: the code after it runs whether or not the lock was taken; check it, or use %s", acq, use)
	case rc.reply != nil && len(replyReads) > 0:
		if onlyChoosesDefer(c.File, replyReads) {
			report("%s from %s only decides whether to defer the release: the work runs without the lock too; return when it is not taken", diag.Quote(rc.reply.Name()), acq)
		} else {
			ignored()
		}
	case rc.reply != nil && !errRead:
		report("%s from %s is never read: the code after it runs whether or not the lock was taken; return when it is not taken", diag.Quote(rc.reply.Name()), acq)
	case !errRead:
		report("result of %s discarded: the code after it runs whether or not the lock was taken; check it, or use %s", acq, use)
	case miss.InReply():
		// The error alone is read; a miss leaves it nil.
		report("only the error of %s is checked, but a held lock gives %s and no error; check the reply, or use %s", acq, missWords(c, miss), use)
	}
}

// reportHelper reports an acquire whose function returns its error alone,
// when a miss leaves that error nil: every caller proceeds.
func reportHelper(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call, r ast.Expr, parents []ast.Node, miss lockmodel.Miss) {
	if !miss.InReply() {
		return
	}
	ret := parents[0].(*ast.ReturnStmt)
	if len(ret.Results) != 1 || ret.Results[0] != r || !typesx.IsError(pass.TypesInfo.TypeOf(r)) {
		return
	}
	sig, _, name := funcOf(pass.TypesInfo, c.Func)
	if sig == nil || sig.Results().Len() != 1 {
		return
	}
	diag.Report(pass, analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Message: fmt.Sprintf(
		"%s returns only the error of %s, nil when another holds the lock, so its callers proceed; return whether it was taken",
		name, lockmodel.AcquireName(c))})
}

// funcOf returns the signature and body of fn, a function declaration or
// literal, and its name for a message ("this function" for a literal).
func funcOf(info *types.Info, fn ast.Node) (*types.Signature, *ast.BlockStmt, string) {
	switch f := fn.(type) {
	case *ast.FuncDecl:
		if obj, ok := info.Defs[f.Name].(*types.Func); ok {
			return obj.Type().(*types.Signature), f.Body, diag.Quote(f.Name.Name)
		}
	case *ast.FuncLit:
		sig, _ := info.TypeOf(f).(*types.Signature)
		return sig, f.Body, "this function"
	}
	return nil, nil, ""
}

// errAsTaken reports whether fn, whose only result is a bool, returns
// err == nil (or err != nil) as that result: the acquire's error stands
// for whether the lock was taken. It returns fn's name for a message.
func errAsTaken(info *types.Info, fn ast.Node, err *types.Var) (string, bool) {
	sig, body, name := funcOf(info, fn)
	if sig == nil || body == nil || sig.Results().Len() != 1 || !typesx.IsBool(sig.Results().At(0).Type()) {
		return "", false
	}
	found := false
	typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return false, false
		}
		b, ok := ast.Unparen(ret.Results[0]).(*ast.BinaryExpr)
		if !ok || b.Op != token.EQL && b.Op != token.NEQ {
			return false, false
		}
		for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			id, ok := ast.Unparen(pair[0]).(*ast.Ident)
			if ok && info.Uses[id] == err && info.Types[pair[1]].IsNil() {
				found = true
			}
		}
		return found, false
	})
	return name, found
}

// checkObtain reports a call of the lock library's acquire whose error
// is dropped, or tested only for ErrNotObtained.
func checkObtain(pass *analysis.Pass, m *lockmodel.Model, call *ast.CallExpr) {
	file := typesx.FileOf(pass.Files, call.Pos())
	if file == nil {
		return
	}
	path, _ := astutil.PathEnclosingInterval(file, call.Pos(), call.End())
	i := 0
	for i < len(path) && path[i] != ast.Node(call) {
		i++
	}
	if i >= len(path) {
		return
	}
	parents := path[i+1:]
	rc := receive(pass.TypesInfo, call, parents)
	if rc.elsewhere || rc.returned {
		return
	}
	var fn ast.Node
	for _, n := range parents {
		if _, ok := n.(*ast.FuncDecl); ok {
			fn = n
			break
		}
		if _, ok := n.(*ast.FuncLit); ok {
			fn = n
			break
		}
	}
	if fn == nil || !workAfter(pass.TypesInfo, parents, call.End()) {
		return
	}
	name := diag.Code(pass.Fset, call.Fun)
	report := func(format string, args ...any) {
		diag.Report(pass, analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Message: fmt.Sprintf(format, args...)})
	}
	// A lock compared with nil is checked, whatever the error's fate.
	if rc.reply != nil && comparedWithNil(pass.TypesInfo, fn, rc.reply) {
		return
	}
	if rc.err == nil {
		report("error of %s discarded: the code after it runs without the lock when it is not obtained; return on the error", name)
		return
	}
	ids := readsFrom(pass.TypesInfo, fn, rc.err, call.End())
	if len(ids) == 0 {
		report("error of %s never read: the code after it runs without the lock when it is not obtained; return on the error", name)
		return
	}
	for _, id := range ids {
		if loggedOnly(pass.TypesInfo, m, file, id) {
			report("%s's not-obtained error is only logged: the code after it runs without the lock when another holds it; return on it", name)
			return
		}
	}
	for _, id := range ids {
		if othersLogged(pass.TypesInfo, m, file, id) {
			report("only %s's not-obtained error ends the function: any other error is only logged and runs the code after it without the lock; return on it", name)
			return
		}
	}
	for _, id := range ids {
		if missLetThrough(pass.TypesInfo, m, file, id, ids) {
			report("%s's not-obtained error is let through: only its other errors return, so the code after it runs without the lock when another holds it; return on it too", name)
			return
		}
	}
	// A read that only chooses whether to defer the release (if err == nil
	// { defer Release }) lets the work run either way: it is no test.
	// The error handed on in the miss branch (if err == ErrNotObtained
	// { return err }) is the sentinel itself: no test of the others.
	var misses []*ast.IfStmt
	var others []*ast.Ident
	for _, id := range ids {
		test, eq := notObtainedTest(pass.TypesInfo, m, file, id)
		if test == nil {
			others = append(others, id)
			continue
		}
		if !eq {
			continue
		}
		if ifs := ifOf(file, test); ifs != nil {
			misses = append(misses, ifs)
		}
	}
	tested := len(others) < len(ids)
	for _, id := range others {
		if !onlyChoosesDefer(file, []*ast.Ident{id}) && !inBodyOf(misses, id) {
			return
		}
	}
	if !tested {
		return
	}
	report("only %s's not-obtained error is checked: any other error runs the code after it without the lock; return on every error", name)
}

// ifOf returns the if statement whose whole condition is test, or nil.
func ifOf(file *ast.File, test ast.Expr) *ast.IfStmt {
	path, _ := astutil.PathEnclosingInterval(file, test.Pos(), test.End())
	for _, n := range path {
		if ifs, ok := n.(*ast.IfStmt); ok {
			if ast.Unparen(ifs.Cond) == test {
				return ifs
			}
			return nil
		}
	}
	return nil
}

// inBodyOf reports whether id is in the body of one of ifs.
func inBodyOf(ifs []*ast.IfStmt, id *ast.Ident) bool {
	for _, s := range ifs {
		if s.Body.Pos() <= id.Pos() && id.End() <= s.Body.End() {
			return true
		}
	}
	return false
}

// reportIgnored reports an acquire at at whose reply is tested, but whose
// test does not keep the work from running: the branch for a lock held
// elsewhere falls through into the work, or the reply only decides
// whether to release.
func reportIgnored(pass *analysis.Pass, m *lockmodel.Model, file *ast.File, at ast.Node, reply *types.Var, replyReads []*ast.Ident, acq string) bool {
	if len(replyReads) == 0 {
		return false
	}
	report := func(format string, args ...any) {
		diag.Report(pass, analysis.Diagnostic{Pos: at.Pos(), End: at.End(), Message: fmt.Sprintf(format, args...)})
	}
	rel := releaseIfs(pass.TypesInfo, file, at, replyReads, m.Drops)
	if miss := missFallsThrough(pass.TypesInfo, m, file, reply, replyReads, rel); miss != nil {
		report("%s from %s is tested, but the branch for a lock held elsewhere (line %d) falls through into the work; return when it is not taken",
			diag.Quote(reply.Name()), acq, diag.Line(pass.Fset, miss.Pos()))
		return true
	}
	if len(rel) == len(replyReads) {
		report("%s from %s only decides whether to release: the work runs without the lock too; return when it is not taken", diag.Quote(reply.Name()), acq)
		return true
	}
	return false
}

// checkThin checks the calls of the package's thin acquire wrappers
// (lockmodel's ThinAcquire: a dao's LockEvent(id) that returns its
// store's Lock whole) as the acquire they return, where the calling
// function releases afterwards: their reply is the caller's to test.
func checkThin(pass *analysis.Pass, m *lockmodel.Model) {
	for _, file := range pass.Files {
		if !tests && m.InTestFile(file) {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
			inner := m.ThinAcquire(fn)
			if inner == nil || !m.IsLockKey(inner, inner.Key()) || !m.Miss(inner).InReply() {
				return true
			}
			path, _ := astutil.PathEnclosingInterval(file, call.Pos(), call.End())
			if len(path) < 2 {
				return true
			}
			checkTestedReply(pass, m, file, call, path[1:], diag.Quote(fn.Name()))
			return true
		})
	}
}
