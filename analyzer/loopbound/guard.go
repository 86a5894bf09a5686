package loopbound

// Whether a guard is a bound, and on what: a context, the clock, a channel, a counter or a helper.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/locklint/locklint/internal/typesx"
)

func isComparison(op token.Token) bool {
	switch op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
		return true
	}
	return false
}

// isBound returns what a guard depends on when that is a bound: a
// context, the clock against a fixed instant, a shutdown channel, an
// attempt counter, or a helper that reads one; Nothing otherwise.
func (sc *scope) isBound(n ast.Node) By {
	return sc.bound(n, map[types.Object]bool{})
}

func (sc *scope) bound(n ast.Node, seen map[types.Object]bool) By {
	info := sc.pass.TypesInfo
	by := Nothing
	typesx.OutsideClosures(n, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.CallExpr:
			if sc.acquireErr(n) {
				by = Context
				break
			}
			if sc.redis != nil && sc.redis(n) {
				// A reply bounds nothing, but a helper that sends
				// commands may still wait on the context and return
				// its error (a single-flight follower's wait).
				if sc.helperBound(n) == Context {
					by = Context
					break
				}
				return false, true
			}
			fn := funcOf(info, n)
			switch {
			case sc.timerFlag(atomicOp(info, n, "Load")):
				by = Flag
			case contextCall(fn):
				by = Context
			case timeComparison(fn):
				if sc.readings(n, map[types.Object]bool{}) == 1 {
					by = Clock
				}
			default:
				by = sc.helperBound(n)
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && !isTickerChan(info, n.X) && !sc.freshTimer(n.X) {
				by = Channel
				if call, ok := ast.Unparen(n.X).(*ast.CallExpr); ok && contextCall(funcOf(info, call)) {
					by = Context
				}
			}
		case *ast.Ident:
			obj := info.Uses[n]
			if isContextErr(obj) {
				by = Context
			} else if obj != nil && !seen[obj] {
				seen[obj] = true
				for _, v := range sc.changing(obj) {
					if by = sc.bound(v, seen); by != Nothing {
						break
					}
				}
				if by == Nothing && sc.acquireErr(n) {
					by = Context
				}
				if v, ok := obj.(*types.Var); ok && by == Nothing && typesx.IsBool(v.Type()) && len(sc.changing(v)) == 0 && sc.timerFlag(v) {
					by = Flag
				}
			}
		case *ast.BinaryExpr:
			if isComparison(n.Op) {
				if sc.mentionsCounter(n, map[types.Object]bool{}) {
					by = Attempts
				} else if sc.readings(n, map[types.Object]bool{}) == 1 {
					by = Clock
				}
			}
		}
		return by != Nothing, false
	})
	return by
}

// readings counts the clock readings taken in the region that e depends
// on. A comparison is a deadline when it holds exactly one: a fresh
// reading against an instant fixed before (time.Now().After(deadline),
// time.Since(start) > limit). With none it never changes; with two the
// deadline moves with the clock (deadline := time.Now().Add(d) in the
// loop).
func (sc *scope) readings(e ast.Node, seen map[types.Object]bool) int {
	info := sc.pass.TypesInfo
	n := 0
	typesx.OutsideClosures(e, func(x ast.Node) (bool, bool) {
		switch x := x.(type) {
		case *ast.CallExpr:
			if sc.redis != nil && sc.redis(x) {
				return false, true
			}
			if readsClock(funcOf(info, x)) {
				n++
			}
		case *ast.Ident:
			obj := info.Uses[x]
			if obj == nil || seen[obj] || len(sc.changing(obj)) == 0 {
				return false, false
			}
			seen[obj] = true
			most := 0
			for _, v := range sc.changing(obj) {
				most = max(most, sc.readings(v, seen))
			}
			n += most
		}
		return false, false
	})
	return n
}

// mentionsCounter reports whether e reads a counter, directly or through
// a variable computed from one (left := max - attempts).
func (sc *scope) mentionsCounter(e ast.Node, seen map[types.Object]bool) bool {
	info := sc.pass.TypesInfo
	return typesx.OutsideClosures(e, func(x ast.Node) (bool, bool) {
		id, ok := x.(*ast.Ident)
		if !ok {
			return false, false
		}
		obj := info.Uses[id]
		if obj == nil || seen[obj] {
			return false, false
		}
		seen[obj] = true
		return sc.counters[obj] || slices.ContainsFunc(sc.changing(obj), func(v ast.Expr) bool { return sc.mentionsCounter(v, seen) }), false
	})
}

// freshTimer reports whether receiving from e waits on a timer or ticker
// started in this run (case <-time.After(d) inside the loop): it restarts
// each time round, so it is a pause rather than a deadline.
func (sc *scope) freshTimer(e ast.Expr) bool {
	info := sc.pass.TypesInfo
	isTimer := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		return ok && typesx.IsTimeFunc(funcOf(info, call), "After", "NewTimer", "NewTicker", "Tick")
	}
	e = ast.Unparen(e)
	if isTimer(e) {
		return true
	}
	if sel, ok := e.(*ast.SelectorExpr); ok && sel.Sel.Name == "C" {
		e = ast.Unparen(sel.X)
	}
	if id, ok := e.(*ast.Ident); ok {
		for _, v := range sc.changing(info.Uses[id]) {
			if isTimer(v) {
				return true
			}
		}
	}
	return false
}

// helperBound returns the bound a helper's result is here: one that
// reads a context; one that compares the clock with what it is given,
// when what it is given is fixed in this region; one that compares an
// attempt argument, when the argument is a counter here; one that steps
// a budget held by its receiver, when the receiver is not rebuilt here.
func (sc *scope) helperBound(call *ast.CallExpr) By {
	if sc.sums == nil {
		return Nothing
	}
	s := sc.sums.of(call)
	if s == nil {
		return Nothing
	}
	info := sc.pass.TypesInfo
	switch s.kind {
	case kindContext:
		return Context
	case kindClock, kindBudget:
		for _, i := range s.params {
			if !sc.invariant(argOf(info, call, i)) {
				return Nothing
			}
		}
		for _, obj := range s.free {
			if !sc.invariantObj(obj) {
				return Nothing
			}
		}
		if s.kind == kindBudget {
			return Budget
		}
		return Clock
	case kindFields:
		// A field of the receiver that this loop steps.
		recv := argOf(info, call, -1)
		fn := funcOf(info, call)
		if recv == nil || fn == nil {
			return Nothing
		}
		t := info.TypeOf(recv)
		if t == nil {
			return Nothing
		}
		for _, name := range s.names {
			if obj, _, _ := types.LookupFieldOrMethod(t, true, fn.Pkg(), name); obj != nil && sc.counters[obj] {
				return Attempts
			}
		}
	case kindAttempts:
		for _, i := range s.params {
			if a := argOf(info, call, i); a != nil && sc.mentionsCounter(a, map[types.Object]bool{}) {
				return Attempts
			}
		}
		for _, obj := range s.free {
			if sc.counters[obj] {
				return Attempts
			}
		}
	}
	return Nothing
}

// argOf returns the expression call passes for parameter i, or for the
// receiver when i is -1; nil when there is none to look at.
func argOf(info *types.Info, call *ast.CallExpr, i int) ast.Expr {
	if i < 0 {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			return sel.X
		}
		return nil
	}
	if i < len(call.Args) {
		return call.Args[i]
	}
	return nil
}

// readsClock reports whether a call reads the clock: time.Now,
// time.Since, time.Until, or an injected clock, that is an interface
// method that takes nothing and returns a time.Time, or takes one and
// returns a time.Duration (Now, Since of a clock interface).
func readsClock(fn *types.Func) bool {
	if typesx.IsTimeFunc(fn, "Now", "Since", "Until") {
		return true
	}
	if fn == nil {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) || sig.Results().Len() != 1 {
		return false
	}
	res := sig.Results().At(0).Type()
	switch sig.Params().Len() {
	case 0:
		return typesx.IsNamedOrPointer(res, "time", "Time")
	case 1:
		return typesx.IsNamedOrPointer(sig.Params().At(0).Type(), "time", "Time") && typesx.IsNamedOrPointer(res, "time", "Duration")
	}
	return false
}
