package unboundedretry

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/lockmodel"
)

//go:embed doc.go
var doc string

// Analyzer reports lock acquisition retried in a loop with no bound.
var Analyzer = &analysis.Analyzer{
	Name:      "unboundedretry",
	Doc:       diag.Doc(doc),
	URL:       "https://github.com/locklint/locklint/blob/main/docs/analyzers/unboundedretry.md",
	Requires:  []*analysis.Analyzer{lockmodel.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{(*lockmodel.Acquirer)(nil), (*Bound)(nil)},
}

var tests bool

func init() {
	Analyzer.Flags.BoolVar(&tests, "tests", false, "also report retry loops in _test.go files")
}

func run(pass *analysis.Pass) (any, error) {
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	if !m.Relevant() {
		// A retry policy or deadline window may live in a package that
		// never touches Redis; its facts are what its callers' loops need.
		if lockmodel.HoldsMainModuleFacts(pass) {
			summarize(pass, false, nil)
		}
		return nil, nil
	}
	acq := m.Acquisitions(func(fn *types.Func) (lockmodel.Acquirer, bool) {
		var f lockmodel.Acquirer
		ok := pass.ImportObjectFact(fn, &f)
		return f, ok
	})
	fns, facts := acq.Funcs()
	acquirers := map[*types.Func]bool{}
	for i, fn := range fns {
		pass.ExportObjectFact(fn, facts[i])
		acquirers[fn] = true
	}
	// An acquirer's own result is the success it reports, not a bound.
	sums := summarize(pass, true, acquirers)
	redis := func(call *ast.CallExpr) bool {
		return m.CallOf(call) != nil || acq.Acquires(call)
	}

	// Walking the loops backwards visits an inner loop before the loop
	// around it.
	loops := m.Loops()
	var reported []ast.Stmt
	for i := len(loops) - 1; i >= 0; i-- {
		loop, body := loops[i].Stmt, loops[i].Body
		// A test that waits for a lock is bounded by its own timeout.
		if !retryLoop(pass, loop) || (!tests && m.InTestFile(loop)) {
			continue
		}
		tries := attempts(pass, acq, loop, reported)
		if len(tries) == 0 {
			continue
		}
		l := newLoopGraph(newLoopScope(pass, loop, redis, sums), m.Graph(body), loop)
		if tries = l.retried(m, tries); len(tries) == 0 {
			continue
		}
		if waits(pass, loop) {
			tries = slices.DeleteFunc(tries, func(t *ast.CallExpr) bool { return standby(pass, m, t) })
			if len(tries) == 0 {
				continue
			}
		}
		exits := l.exits()
		if len(exits) == 0 || l.bounded(exits) {
			continue
		}
		reported = append(reported, loop)
		report(pass, acq.Library(tries[0]), loop, tries[0])
	}
	recursions(pass, m, acq, sums, redis)
	return nil, nil
}

// newLoopScope is the scope of one loop: its body runs each iteration, a
// for statement's init once.
func newLoopScope(pass *analysis.Pass, loop ast.Stmt, redis func(*ast.CallExpr) bool, sums *summaries) *scope {
	switch l := loop.(type) {
	case *ast.ForStmt:
		return newScope(pass, loop, l.Body, l.Init, redis, sums)
	case *ast.RangeStmt:
		return newScope(pass, loop, l.Body, nil, redis, sums)
	}
	return newScope(pass, loop, nil, nil, redis, sums)
}

// retried keeps the acquisitions the loop retries: those after whose
// failure the next iteration can come, and after whose success it
// cannot. A loop that goes on after getting the lock (a periodic job
// that works and waits for the next tick, a benchmark's b.Loop, one
// claim per item) acquires once per iteration; that is not a retry.
func (l *loopGraph) retried(m *lockmodel.Model, tries []*ast.CallExpr) []*ast.CallExpr {
	tags := switchTags(l.loop)
	inside := func(b *cfg.Block) bool { return l.inside[b] }
	header := func(b *cfg.Block) bool { return b == l.header }
	var out []*ast.CallExpr
	for _, t := range tries {
		if l.nextItem(m, t) {
			continue
		}
		if newOutcomes(m, t, tags, true).reaches(l.g, inside, header) {
			continue
		}
		if !newOutcomes(m, t, tags, false).reaches(l.g, inside, header) {
			continue
		}
		out = append(out, t)
	}
	return out
}

func report(pass *analysis.Pass, lib lockmodel.Library, loop ast.Stmt, try *ast.CallExpr) {
	// What a bound is, and why a constant sleep is worse, is the doc's.
	msg := "lock acquisition retried with no bound; exit on a context, deadline or attempt limit, or use " + diag.Use(lib, "WithMaxWait")
	if sleep := constantSleep(pass, loop); sleep != nil {
		msg = "lock acquisition retried with no bound, at a constant interval; add a bound and jitter, or use " + diag.Use(lib, "WithMaxWait")
	}
	pos := forPos(loop)
	diag.Report(pass, analysis.Diagnostic{
		Pos:     pos,
		End:     pos + token.Pos(len("for")),
		Message: msg,
		Related: []analysis.RelatedInformation{{Pos: try.Pos(), End: try.End(), Message: "acquisition retried here"}},
	})
}

func forPos(loop ast.Stmt) token.Pos {
	switch l := loop.(type) {
	case *ast.ForStmt:
		return l.For
	case *ast.RangeStmt:
		return l.For
	}
	return loop.Pos()
}

// retryLoop reports whether a loop can retry: any for statement, and a
// range over a time channel (for range ticker.C). Ranges over integers
// are bounded; ranges over collections and other channels make one
// attempt per item.
func retryLoop(pass *analysis.Pass, loop ast.Stmt) bool {
	switch l := loop.(type) {
	case *ast.ForStmt:
		return true
	case *ast.RangeStmt:
		return isTimeChan(pass.TypesInfo.TypeOf(l.X))
	}
	return false
}

// nextItem reports whether the acquire's key comes from a value received
// in the iteration (j := <-jobs; tryLock(j.ID)): a failure moves on to
// the next item rather than acquiring the same key again.
func (l *loopGraph) nextItem(m *lockmodel.Model, call *ast.CallExpr) bool {
	keys := call.Args
	if c := m.CallOf(call); c != nil {
		keys = c.Keys
	}
	for _, k := range keys {
		if l.received(k, map[types.Object]bool{}) {
			return true
		}
	}
	return false
}

// received reports whether e depends on a channel receive in the loop.
func (l *loopGraph) received(e ast.Expr, seen map[types.Object]bool) bool {
	info := l.pass.TypesInfo
	return outsideClosures(e, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			return n.Op == token.ARROW && !isTickerChan(info, n.X), false
		case *ast.Ident:
			if obj := info.Uses[n]; obj != nil && !seen[obj] {
				seen[obj] = true
				return slices.ContainsFunc(l.values[obj], func(v ast.Expr) bool { return l.received(v, seen) }), false
			}
		}
		return false, false
	})
}

// outsideClosures reports whether match holds for a node of root outside
// function literals, whose bodies do not run where they are written.
// match's second result skips the node's children.
func outsideClosures(root ast.Node, match func(n ast.Node) (found, skip bool)) bool {
	found := false
	ast.Inspect(root, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		var skip bool
		found, skip = match(n)
		return !found && !skip
	})
	return found
}

// attempts returns the acquisitions in the loop whose result is used,
// outside function literals and outside loops already reported.
func attempts(pass *analysis.Pass, acq *lockmodel.Acquisitions, loop ast.Node, reported []ast.Stmt) []*ast.CallExpr {
	discarded := map[ast.Expr]bool{}
	var calls []*ast.CallExpr
	ast.Inspect(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ExprStmt:
			discarded[ast.Unparen(n.X)] = true
		case ast.Stmt:
			for _, r := range reported {
				if n == r {
					return false
				}
			}
		case *ast.CallExpr:
			if acq.Acquires(n) {
				calls = append(calls, n)
			}
		}
		return true
	})
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	var used []*ast.CallExpr
	for _, call := range calls {
		outer := ast.Expr(call)
		if c := m.CallOf(call); c != nil && c.Outer != nil {
			outer = c.Outer
		}
		if !discarded[outer] {
			used = append(used, call)
		}
	}
	return used
}

// constantSleep returns a time.Sleep(d) or <-time.After(d) statement in the
// loop whose d is a constant.
func constantSleep(pass *analysis.Pass, loop ast.Stmt) ast.Node {
	var found ast.Node
	ast.Inspect(loop, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ExprStmt:
			x := ast.Unparen(n.X)
			if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				x = ast.Unparen(u.X)
			}
			call, ok := x.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			if fn := funcOf(pass.TypesInfo, call); isTimeFunc(fn, "Sleep", "After") {
				if tv, ok := pass.TypesInfo.Types[call.Args[0]]; ok && tv.Value != nil {
					found = n
				}
			}
		}
		return true
	})
	return found
}

// standby reports an attempt at a leader lease, directly or through a
// helper named for the leadership: a replica that waits for the lease
// between attempts, without a deadline, is a standby doing its job.
func standby(pass *analysis.Pass, m *lockmodel.Model, try *ast.CallExpr) bool {
	if c := m.CallOf(try); c != nil {
		return m.LeaderKey(c.Key())
	}
	fn := funcOf(pass.TypesInfo, try)
	return fn != nil && m.LeaderName(fn.Name())
}

// waits reports a loop that blocks between its iterations: a sleep, or a
// receive from a channel of time.Time (a timer's, a ticker's, time.After's).
func waits(pass *analysis.Pass, loop ast.Stmt) bool {
	found := false
	ast.Inspect(loop, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			found = isTimeFunc(funcOf(pass.TypesInfo, n), "Sleep")
		case *ast.UnaryExpr:
			found = n.Op == token.ARROW && isTimeChan(pass.TypesInfo.TypeOf(n.X))
		case *ast.RangeStmt:
			found = isTimeChan(pass.TypesInfo.TypeOf(n.X))
		}
		return true
	})
	return found
}
