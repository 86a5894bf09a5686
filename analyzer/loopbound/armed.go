package loopbound

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

// armed holds what a loop's guards may rest on that was set up before
// the loop: the deadline of the context its acquisitions take, a flag
// that a timer's goroutine sets.
type armed struct {
	pass *analysis.Pass
	loop ast.Stmt
	// tries maps the acquisitions the loop retries, and the chains that
	// read their replies (SetNX(...).Result()), to the acquisition.
	tries map[ast.Expr]*ast.CallExpr
	// before are the statements that run before the loop on every path
	// to it: those ahead of it in each block around it, up to its
	// function, and its init. fn is that function.
	before []ast.Stmt
	fn     ast.Node
}

func newArmed(pass *analysis.Pass, m *lockmodel.Model, loop ast.Stmt, tries []*ast.CallExpr) *armed {
	a := &armed{pass: pass, loop: loop, tries: map[ast.Expr]*ast.CallExpr{}}
	for _, t := range tries {
		a.tries[t] = t
		if c := m.CallOf(t); c != nil && c.Outer != nil {
			a.tries[c.Outer] = t
		}
	}
	if f, ok := loop.(*ast.ForStmt); ok && f.Init != nil {
		a.before = append(a.before, f.Init)
	}
	for _, file := range pass.Files {
		if file.FileStart > loop.Pos() || loop.End() > file.FileEnd {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(file, loop.Pos(), loop.End())
		for i := 1; i < len(path); i++ {
			switch p := path[i].(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				a.fn = p
			}
			for _, s := range typesx.Stmts(path[i]) {
				if s == path[i-1] {
					break
				}
				a.before = append(a.before, s)
			}
		}
	}
	return a
}

// acquireErr reports whether e is the error of a retried acquisition
// whose context has a deadline set before the loop: when the deadline
// passes, the acquisition fails with the context's error, so an exit on
// that error ends the loop.
func (sc *scope) acquireErr(e ast.Expr) bool {
	a := sc.armed
	if a == nil || !typesx.IsError(sc.pass.TypesInfo.TypeOf(e)) {
		return false
	}
	info := sc.pass.TypesInfo
	var from []ast.Expr
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		from = sc.changing(info.Uses[id])
	} else {
		from = []ast.Expr{e}
	}
	for _, v := range from {
		call := a.tries[ast.Unparen(v)]
		if call == nil {
			continue
		}
		for _, arg := range call.Args {
			if typesx.IsContext(info.TypeOf(arg)) && sc.deadlineCtx(arg, map[types.Object]bool{}) {
				return true
			}
		}
	}
	return false
}

// deadlineCtx reports whether e is a context with a deadline that the
// loop does not renew: made by context.WithTimeout or WithDeadline, or
// derived from such a context by WithCancel or WithValue, into a
// variable that the function assigns only so, on every path to the loop,
// and the loop does not assign.
func (sc *scope) deadlineCtx(e ast.Expr, seen map[types.Object]bool) bool {
	info := sc.pass.TypesInfo
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn := funcOf(info, e)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "context" {
			return false
		}
		switch strings.TrimSuffix(fn.Name(), "Cause") {
		case "WithTimeout", "WithDeadline":
			return true
		case "WithCancel", "WithValue":
			return len(e.Args) > 0 && sc.deadlineCtx(e.Args[0], seen)
		}
		return false
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		a := sc.armed
		if !ok || seen[v] || !sc.invariantObj(v) || a == nil || a.fn == nil {
			return false
		}
		seen[v] = true
		all, set := true, false
		ast.Inspect(a.fn, func(n ast.Node) bool {
			var lhs, rhs []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				lhs, rhs = n.Lhs, n.Rhs
			case *ast.ValueSpec:
				for _, id := range n.Names {
					lhs = append(lhs, id)
				}
				rhs = n.Values
			default:
				return all
			}
			for i, l := range lhs {
				id, ok := ast.Unparen(l).(*ast.Ident)
				if !ok || (info.Defs[id] != v && info.Uses[id] != v) {
					continue
				}
				var val ast.Expr
				switch {
				case len(lhs) == len(rhs):
					val = rhs[i]
				case len(rhs) == 1 && i == 0:
					val = rhs[0] // ctx, cancel := context.WithTimeout(...)
				}
				all = all && val != nil && sc.deadlineCtx(val, seen)
				set = set || sc.runsBefore(n)
			}
			return all
		})
		return all && set
	}
	return false
}

// runsBefore reports whether n is, or is the whole declaration of, a
// statement that runs before the loop on every path to it.
func (sc *scope) runsBefore(n ast.Node) bool {
	for _, s := range sc.armed.before {
		if s == n {
			return true
		}
		if d, ok := s.(*ast.DeclStmt); ok && n.Pos() >= d.Pos() && n.End() <= d.End() {
			return true
		}
	}
	return false
}

// timerFlag reports whether v is a flag that a timer sets: a goroutine
// started before the loop, or a function that time.AfterFunc was given
// before it, writes v once a timer fires, and the loop itself does not.
func (sc *scope) timerFlag(v *types.Var) bool {
	a := sc.armed
	if a == nil || v == nil || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() || sc.writes(a.loop, v) {
		return false
	}
	info := sc.pass.TypesInfo
	for _, s := range a.before {
		if g, ok := s.(*ast.GoStmt); ok {
			if lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit); ok && sc.setAfterTimer(lit.Body.List, v) {
				return true
			}
			continue
		}
		switch s.(type) {
		case *ast.ExprStmt, *ast.AssignStmt, *ast.DeferStmt, *ast.DeclStmt:
		default:
			continue
		}
		set := typesx.OutsideClosures(s, func(n ast.Node) (bool, bool) {
			call, ok := n.(*ast.CallExpr)
			if !ok || !typesx.IsTimeFunc(funcOf(info, call), "AfterFunc") || len(call.Args) != 2 {
				return false, false
			}
			lit, ok := ast.Unparen(call.Args[1]).(*ast.FuncLit)
			return ok && sc.writes(lit.Body, v), false
		})
		if set {
			return true
		}
	}
	return false
}

// setAfterTimer reports whether a goroutine's statements write v after
// waiting on a timer: a receive from a time channel or a sleep.
func (sc *scope) setAfterTimer(list []ast.Stmt, v *types.Var) bool {
	info := sc.pass.TypesInfo
	waited := false
	for _, s := range list {
		if waited && sc.writes(s, v) {
			return true
		}
		if es, ok := s.(*ast.ExprStmt); ok {
			switch x := ast.Unparen(es.X).(type) {
			case *ast.UnaryExpr:
				waited = waited || x.Op == token.ARROW && isTimeChan(info.TypeOf(x.X))
			case *ast.CallExpr:
				waited = waited || typesx.IsTimeFunc(funcOf(info, x), "Sleep")
			}
		}
	}
	return false
}

// writes reports whether n, outside function literals, assigns v or
// stores into it through sync/atomic.
func (sc *scope) writes(n ast.Node, v *types.Var) bool {
	info := sc.pass.TypesInfo
	return typesx.OutsideClosures(n, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if varOf(info, l) == v {
					return true, false
				}
			}
		case *ast.IncDecStmt:
			return varOf(info, n.X) == v, false
		case *ast.CallExpr:
			return atomicOp(info, n, "Store", "Swap", "CompareAndSwap", "Add", "And", "Or") == v, false
		}
		return false, false
	})
}

// atomicOp returns the variable a sync/atomic operation named by one of
// ops (or ops followed by a type, LoadInt32) works on: the receiver of a
// method (flag.Load()) or the address passed to a function
// (atomic.LoadInt32(&flag)).
func atomicOp(info *types.Info, call *ast.CallExpr, ops ...string) *types.Var {
	fn := funcOf(info, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		return nil
	}
	named := false
	for _, op := range ops {
		named = named || strings.HasPrefix(fn.Name(), op)
	}
	if !named {
		return nil
	}
	var x ast.Expr
	if sig, _ := fn.Type().(*types.Signature); sig != nil && sig.Recv() != nil {
		x = argOf(info, call, -1)
	} else if len(call.Args) > 0 {
		if u, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr); ok && u.Op == token.AND {
			x = u.X
		}
	}
	if x == nil {
		return nil
	}
	v, _ := varOf(info, x).(*types.Var)
	return v
}
