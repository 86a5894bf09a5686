package loopbound

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// loopGraph is the part of a function's control-flow graph that one loop
// spans.
type loopGraph struct {
	*scope
	g      *cfg.CFG
	loop   ast.Stmt
	header *cfg.Block // where each iteration starts: the back edges' target
	inside map[*cfg.Block]bool
	// ticker is true for a range over a time channel, which never closes.
	ticker bool
}

func newLoopGraph(sc *scope, g *cfg.CFG, loop ast.Stmt) *loopGraph {
	l := &loopGraph{scope: sc, g: g, loop: loop, inside: map[*cfg.Block]bool{}}
	headKind := cfg.KindRangeLoop
	if f, ok := loop.(*ast.ForStmt); ok {
		headKind = cfg.KindForLoop
		if f.Cond == nil {
			headKind = cfg.KindForBody
		}
	} else {
		l.ticker = true // retryLoop admits only ranges over time channels
	}
	for _, b := range g.Blocks {
		if !b.Live || b.Stmt == nil {
			continue
		}
		if b.Stmt == loop {
			if b.Kind == headKind {
				l.header = b
			}
			if b.Kind == cfg.KindForDone || b.Kind == cfg.KindRangeDone {
				continue
			}
		}
		if b.Stmt.Pos() >= loop.Pos() && b.Stmt.End() <= loop.End() {
			l.inside[b] = true
		}
	}
	return l
}

// exit is a way out of the loop: an edge from an inside block to an
// outside one, or an inside block with no successor (return, panic, a
// call that does not return).
type exit struct {
	from *cfg.Block
	cond bool // the exit is one branch of from's condition
}

func (l *loopGraph) exits() []exit {
	var out []exit
	for _, b := range l.g.Blocks {
		if !l.inside[b] {
			continue
		}
		if len(b.Succs) == 0 {
			out = append(out, exit{from: b})
			continue
		}
		for _, s := range b.Succs {
			if l.inside[s] {
				continue
			}
			// A time channel is never closed: ranging over it ends only
			// by a break or return.
			if b == l.header && l.ticker {
				continue
			}
			out = append(out, exit{from: b, cond: len(b.Succs) == 2})
		}
	}
	return out
}

// bounded returns the bound that guards an exit, Nothing when none does.
func (l *loopGraph) bounded(exits []exit) By {
	for _, e := range exits {
		for _, g := range l.guards(e) {
			if by := l.isBound(g); by != Nothing {
				return by
			}
			if l.tickerDeadline(g) {
				return Channel
			}
		}
	}
	return Nothing
}

// guards returns the conditions that decide whether an iteration takes
// the exit: the exit's own condition, and every branch inside the loop on
// which the exit is control dependent (one successor always leads to
// the exit, the other need not).
func (l *loopGraph) guards(e exit) []ast.Node {
	var out []ast.Node
	if e.cond {
		if g := condOf(e.from); g != nil {
			out = append(out, g)
		}
	}
	if e.from == l.header {
		return out
	}
	for b := range l.inside {
		if len(b.Succs) != 2 || b == e.from {
			continue
		}
		if l.postDominates(e.from, b.Succs[0]) != l.postDominates(e.from, b.Succs[1]) {
			if g := condOf(b); g != nil {
				out = append(out, g)
			}
		}
	}
	return out
}

// postDominates reports whether every path from s, within the current
// iteration, goes through x: none reaches the next iteration, another
// exit, or the outside of the loop while avoiding x.
func (l *loopGraph) postDominates(x, s *cfg.Block) bool {
	seen := map[*cfg.Block]bool{}
	work := []*cfg.Block{s}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == x || seen[b] {
			continue
		}
		seen[b] = true
		if b == l.header || !l.inside[b] || len(b.Succs) == 0 {
			return false
		}
		work = append(work, b.Succs...)
	}
	return true
}

// condOf returns what a two-way branch tests: its condition, or for a
// select case the communication.
func condOf(b *cfg.Block) ast.Node {
	if len(b.Succs) != 2 {
		return nil
	}
	if s := b.Succs[0]; s.Kind == cfg.KindSelectCaseBody {
		if cc, ok := s.Stmt.(*ast.CommClause); ok && cc.Comm != nil {
			return cc.Comm
		}
		return nil
	}
	if len(b.Nodes) == 0 {
		return nil
	}
	if e, ok := b.Nodes[len(b.Nodes)-1].(ast.Expr); ok {
		return e
	}
	return nil
}

// contextCall reports whether fn reads a context's state: Done, Err or
// Cause, of context.Context or of a type that is one.
func contextCall(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if fn.Pkg().Path() == "context" {
		switch fn.Name() {
		case "Done", "Err", "Cause":
			return true
		}
	}
	if sig != nil && sig.Recv() != nil && (fn.Name() == "Done" || fn.Name() == "Err") {
		return typesx.HasContextMethods(sig.Recv().Type())
	}
	return false
}

// timeComparison reports whether fn compares two instants: the
// comparison methods of time.Time.
func timeComparison(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "time" {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil || !typesx.IsNamedOrPointer(sig.Recv().Type(), "time", "Time") {
		return false
	}
	switch fn.Name() {
	case "After", "Before", "Compare", "Equal":
		return true
	}
	return false
}

func isContextErr(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "context" && (v.Name() == "Canceled" || v.Name() == "DeadlineExceeded")
}

// isTickerChan reports whether receiving from e paces the loop rather than
// ends it: a Ticker's C or time.Tick.
func isTickerChan(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if sel, ok := e.(*ast.SelectorExpr); ok && sel.Sel.Name == "C" {
		if s := info.Selections[sel]; s != nil && typesx.IsNamedOrPointer(s.Recv(), "time", "Ticker") {
			return true
		}
	}
	if call, ok := e.(*ast.CallExpr); ok {
		return typesx.IsTimeFunc(funcOf(info, call), "Tick")
	}
	return false
}

// isTimeChan reports whether t is a channel of time.Time.
func isTimeChan(t types.Type) bool {
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	return ok && typesx.IsNamedOrPointer(ch.Elem(), "time", "Time")
}

func funcOf(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn
}

// varOf returns the variable or field e names.
func varOf(info *types.Info, e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.Uses[e]
	case *ast.SelectorExpr:
		return info.Uses[e.Sel]
	}
	return nil
}

// tickerDeadline reports whether g is the receive of a select case that
// waits on a ticker made before the loop and whose body leaves the loop
// (a return, or a break or goto to a label outside it): the first tick
// ends the loop, so it is bounded by one period. A tick whose case goes
// on looping only paces the loop.
func (l *loopGraph) tickerDeadline(g ast.Node) bool {
	var clause *ast.CommClause
	ast.Inspect(l.loop, func(n ast.Node) bool {
		if cc, ok := n.(*ast.CommClause); ok && cc.Comm == g {
			clause = cc
		}
		return clause == nil
	})
	if clause == nil || len(clause.Body) == 0 {
		return false
	}
	var recv ast.Expr
	switch c := clause.Comm.(type) {
	case *ast.ExprStmt:
		recv = c.X
	case *ast.AssignStmt:
		if len(c.Rhs) == 1 {
			recv = c.Rhs[0]
		}
	}
	u, ok := ast.Unparen(recv).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW || !isTickerChan(l.pass.TypesInfo, u.X) || l.freshTimer(u.X) {
		return false
	}
	switch last := clause.Body[len(clause.Body)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		if last.Label == nil || (last.Tok != token.BREAK && last.Tok != token.GOTO) {
			return false
		}
		target, _ := l.pass.TypesInfo.Uses[last.Label].(*types.Label)
		return target != nil && (target.Pos() < l.loop.Pos() || target.Pos() >= l.loop.End())
	}
	return false
}
