package loopbound

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"

	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

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
		if newOutcomes(m, t, tags, true).reaches(l.g, inside, header) && !l.impossibleExit(m, t, tags) {
			continue
		}
		if !newOutcomes(m, t, tags, false).reaches(l.g, inside, header) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// impossibleExit reports whether the loop has an exit meant for the
// acquire's success that no outcome can take: an if after the acquire,
// whose body leaves the loop (a return, a break of this loop), on a
// condition that reads the acquire's results and is false on success,
// on contention and on an error alike (err != nil && ok, with SetNX's
// false on every error). Such a loop goes on after getting the lock
// only because its exit is wrong; it is a retry that nothing ends, not
// a periodic job.
func (l *loopGraph) impossibleExit(m *lockmodel.Model, call *ast.CallExpr, tags map[ast.Expr]ast.Expr) bool {
	body := loopBody(l.loop)
	if body == nil {
		return false
	}
	var stmt ast.Stmt
	for _, s := range body.List {
		if s.Pos() <= call.Pos() && call.End() <= s.End() {
			stmt = s
			break
		}
	}
	if _, ok := stmt.(*ast.AssignStmt); !ok {
		return false
	}
	variants := []*outcomes{newOutcomes(m, call, tags, true), newOutcomes(m, call, tags, false), newErrorOutcomes(m, call, tags)}
	found := false
	for _, s := range body.List {
		ifs, ok := s.(*ast.IfStmt)
		if found || !ok || ifs.Pos() < stmt.End() || ifs.Init != nil || !leaves(ifs.Body) {
			continue
		}
		impossible := true
		for _, o := range variants {
			vars := env{}
			o.assign(stmt, vars)
			if !o.depends(ifs.Cond, vars) || o.value(ifs.Cond, vars) != isFalse {
				impossible = false
				break
			}
		}
		found = impossible
	}
	return found
}

// loopBody returns a for or range statement's body.
func loopBody(loop ast.Stmt) *ast.BlockStmt {
	switch l := loop.(type) {
	case *ast.ForStmt:
		return l.Body
	case *ast.RangeStmt:
		return l.Body
	}
	return nil
}

// leaves reports whether a block ends by leaving the loop around it: a
// return, or a break with no label.
func leaves(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch last := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return last.Tok == token.BREAK && last.Label == nil
	}
	return false
}

// canRetry reports whether a loop can retry: any for statement, and a
// range over a time channel (for range ticker.C). Ranges over integers
// are bounded; ranges over collections and other channels make one
// attempt per item.
func canRetry(pass *analysis.Pass, loop ast.Stmt) bool {
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
	return typesx.OutsideClosures(e, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			return n.Op == token.ARROW && !isTickerChan(info, n.X), false
		case *ast.Ident:
			if obj := info.Uses[n]; obj != nil && !seen[obj] {
				seen[obj] = true
				return slices.ContainsFunc(l.changing(obj), func(v ast.Expr) bool { return l.received(v, seen) }), false
			}
		}
		return false, false
	})
}

// attempts returns the acquisitions in root whose result is used,
// outside function literals.
func attempts(pass *analysis.Pass, m *lockmodel.Model, acq *lockmodel.Acquisitions, root ast.Node) []*ast.CallExpr {
	discarded := map[ast.Expr]bool{}
	var calls []*ast.CallExpr
	typesx.OutsideClosures(root, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.ExprStmt:
			discarded[ast.Unparen(n.X)] = true
		case *ast.CallExpr:
			if acq.Acquires(n) {
				calls = append(calls, n)
			}
		}
		return false, false
	})
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

// constantPause reports a time.Sleep(d) or <-time.After(d) statement in
// the loop whose d is a constant.
func constantPause(pass *analysis.Pass, loop ast.Stmt) bool {
	return typesx.OutsideClosures(loop, func(n ast.Node) (bool, bool) {
		s, ok := n.(*ast.ExprStmt)
		if !ok {
			return false, false
		}
		x := ast.Unparen(s.X)
		if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			x = ast.Unparen(u.X)
		}
		call, ok := x.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || !typesx.IsTimeFunc(funcOf(pass.TypesInfo, call), "Sleep", "After") {
			return false, false
		}
		tv, ok := pass.TypesInfo.Types[call.Args[0]]
		return ok && tv.Value != nil, false
	})
}

// waits reports a loop that blocks between its iterations: a sleep, or a
// receive from a channel of time.Time (a timer's, a ticker's, time.After's).
func waits(pass *analysis.Pass, loop ast.Stmt) bool {
	info := pass.TypesInfo
	return typesx.OutsideClosures(loop, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.CallExpr:
			return typesx.IsTimeFunc(funcOf(info, n), "Sleep"), false
		case *ast.UnaryExpr:
			return n.Op == token.ARROW && isTimeChan(info.TypeOf(n.X)), false
		case *ast.RangeStmt:
			return isTimeChan(info.TypeOf(n.X)), false
		}
		return false, false
	})
}

// spinsWhenDone returns the acquisition of tries that makes loop a spin
// once its context is done (Loop.Spins), or nil: loop has no exit, no
// sleep, receive or select of its own, and the acquisition is passed a
// context variable declared outside the loop and not written in it.
func spinsWhenDone(pass *analysis.Pass, l *loopGraph, tries []*ast.CallExpr) *ast.CallExpr {
	if len(l.exits()) > 0 {
		return nil
	}
	info := pass.TypesInfo
	blocks := typesx.OutsideClosures(l.loop, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.CallExpr:
			return typesx.IsTimeFunc(funcOf(info, n), "Sleep"), false
		case *ast.UnaryExpr:
			return n.Op == token.ARROW, false
		case *ast.SelectStmt, *ast.SendStmt:
			return true, false
		case *ast.RangeStmt:
			t := info.TypeOf(n.X)
			if t == nil {
				return false, false
			}
			_, ch := t.Underlying().(*types.Chan)
			return ch, false
		}
		return false, false
	})
	if blocks {
		return nil
	}
	for _, t := range tries {
		for _, arg := range t.Args {
			id, ok := ast.Unparen(arg).(*ast.Ident)
			if !ok || !typesx.IsContext(info.TypeOf(id)) {
				continue
			}
			v, _ := info.Uses[id].(*types.Var)
			if v == nil || l.loop.Pos() <= v.Pos() && v.Pos() < l.loop.End() || writtenIn(info, l.loop, v) {
				continue
			}
			return t
		}
	}
	return nil
}

// writtenIn reports whether v is assigned in n.
func writtenIn(info *types.Info, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		if as, ok := x.(*ast.AssignStmt); ok {
			for _, l := range as.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) == v {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
