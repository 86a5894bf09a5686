package loopbound

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/internal/typesx"
)

// scope is a region that runs again and again, in which bounds are
// looked for: a loop (what changes from one iteration to the next) or a
// function body (what changes from one call to the next).
type scope struct {
	pass *analysis.Pass
	// values are the expressions assigned to variables in the region, so
	// that err := ctx.Err(); if err != nil { return } is a context bound.
	values map[types.Object][]ast.Expr
	// defined are the variables declared in the region: each run starts
	// them afresh.
	defined map[types.Object]bool
	// fixed are the variables declared and assigned only in a for
	// statement's init: their values are set once, before the first
	// iteration, as if outside the region (for start := time.Now(); ...).
	fixed map[types.Object]bool
	// steps are the variables the region increments or decrements, and
	// counters those of them that are not reset on every run: comparing
	// one of them bounds the number of attempts.
	steps    map[types.Object]bool
	counters map[types.Object]bool
	// redis tells the calls whose arguments say nothing about a bound:
	// commands and acquirers (SET lock:x time.Now().String() is no deadline).
	redis func(*ast.CallExpr) bool
	sums  *summaries
	// armed is what a loop's region rests on from before the loop; nil
	// for a function body.
	armed *armed
}

// newScope collects the assignments in root. body is the part that runs
// each time (a loop's body, a function's body): a counter declared there,
// or set there by a plain assignment outside any branch, restarts every
// time and bounds nothing. A for statement's init runs once.
func newScope(pass *analysis.Pass, root ast.Node, body *ast.BlockStmt, once ast.Node, redis func(*ast.CallExpr) bool, sums *summaries) *scope {
	sc := &scope{
		pass:     pass,
		values:   map[types.Object][]ast.Expr{},
		defined:  map[types.Object]bool{},
		fixed:    map[types.Object]bool{},
		steps:    map[types.Object]bool{},
		counters: map[types.Object]bool{},
		redis:    redis,
		sums:     sums,
	}
	info := pass.TypesInfo
	resets := map[types.Object]bool{}
	objOf := func(lhs ast.Expr) types.Object {
		if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
			if obj := info.Defs[id]; obj != nil {
				return obj
			}
		}
		return varOf(info, lhs)
	}
	inOnce := func(n ast.Node) bool {
		return once != nil && n.Pos() >= once.Pos() && n.End() <= once.End()
	}
	step := func(lhs ast.Expr) {
		if v, ok := objOf(lhs).(*types.Var); ok && isInteger(v.Type()) {
			sc.steps[v] = true
		}
	}
	// everyRun are the variables assigned outside the init.
	everyRun := map[types.Object]bool{}
	value := func(lhs ast.Expr, v ast.Expr) {
		if obj := objOf(lhs); obj != nil {
			sc.values[obj] = append(sc.values[obj], v)
			if !inOnce(lhs) {
				everyRun[obj] = true
			}
		}
	}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			if obj := info.Defs[n]; obj != nil {
				sc.defined[obj] = true
				if !inOnce(n) {
					resets[obj] = true
				}
			}
		case *ast.IncDecStmt:
			step(n.X)
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if len(n.Values) == len(n.Names) {
					value(id, n.Values[i])
				} else if len(n.Values) == 1 {
					value(id, n.Values[0])
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if len(n.Lhs) == len(n.Rhs) {
					value(lhs, n.Rhs[i])
				} else if len(n.Rhs) == 1 {
					value(lhs, n.Rhs[0]) // x, err := f()
				}
			}
			switch n.Tok {
			case token.ADD_ASSIGN, token.SUB_ASSIGN:
				step(n.Lhs[0])
			case token.ASSIGN:
				if len(n.Lhs) == 1 && len(n.Rhs) == 1 && isStep(info, n.Lhs[0], n.Rhs[0]) {
					step(n.Lhs[0])
				}
			}
		}
		return true
	})
	if body != nil {
		for _, s := range body.List {
			if as, ok := s.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
				for i, lhs := range as.Lhs {
					if len(as.Lhs) != len(as.Rhs) || !isStep(info, lhs, as.Rhs[i]) {
						resets[objOf(lhs)] = true
					}
				}
			}
		}
	}
	for obj := range sc.steps {
		if !resets[obj] {
			sc.counters[obj] = true
		}
	}
	for obj := range sc.defined {
		if !resets[obj] && !everyRun[obj] && !sc.steps[obj] && !addressed(info, root, obj) {
			sc.fixed[obj] = true
		}
	}
	return sc
}

// isStep reports whether x = v is x = x ± n.
func isStep(info *types.Info, x, v ast.Expr) bool {
	bin, ok := ast.Unparen(v).(*ast.BinaryExpr)
	if !ok || (bin.Op != token.ADD && bin.Op != token.SUB) {
		return false
	}
	o := varOf(info, x)
	return o != nil && (o == varOf(info, bin.X) || o == varOf(info, bin.Y))
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

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
	outsideClosures(n, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.CallExpr:
			if sc.acquireErr(n) {
				by = Context
				break
			}
			if sc.redis != nil && sc.redis(n) {
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
	ast.Inspect(e, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if sc.redis != nil && sc.redis(x) {
				return false
			}
			if readsClock(funcOf(info, x)) {
				n++
			}
		case *ast.Ident:
			obj := info.Uses[x]
			if obj == nil || seen[obj] || len(sc.changing(obj)) == 0 {
				return true
			}
			seen[obj] = true
			most := 0
			for _, v := range sc.changing(obj) {
				most = max(most, sc.readings(v, seen))
			}
			n += most
		}
		return true
	})
	return n
}

// mentionsCounter reports whether e reads a counter, directly or through
// a variable computed from one (left := max - attempts).
func (sc *scope) mentionsCounter(e ast.Node, seen map[types.Object]bool) bool {
	info := sc.pass.TypesInfo
	return outsideClosures(e, func(x ast.Node) (bool, bool) {
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

// invariant reports whether e is the same on every run of the region:
// it reads no variable the region assigns or declares, and no clock.
func (sc *scope) invariant(e ast.Expr) bool {
	if e == nil {
		return true
	}
	info := sc.pass.TypesInfo
	ok := true
	ast.Inspect(e, func(x ast.Node) bool {
		if !ok {
			return false
		}
		switch x := x.(type) {
		case *ast.CallExpr:
			if readsClock(funcOf(info, x)) {
				ok = false
			}
		case *ast.Ident:
			if obj := info.Uses[x]; obj != nil {
				ok = sc.invariantObj(obj)
			}
		}
		return ok
	})
	return ok
}

func (sc *scope) invariantObj(obj types.Object) bool {
	return sc.fixed[obj] || len(sc.values[obj]) == 0 && !sc.defined[obj] && !sc.steps[obj]
}

// changing returns the values the region assigns to obj on each run;
// none for a variable fixed in a for statement's init.
func (sc *scope) changing(obj types.Object) []ast.Expr {
	if sc.fixed[obj] {
		return nil
	}
	return sc.values[obj]
}

// addressed reports whether obj may change where the region's
// assignments do not show it: its address is taken, or a function
// literal in root assigns it.
func addressed(info *types.Info, root ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			found = found || n.Op == token.AND && varOf(info, n.X) == obj
		case *ast.FuncLit:
			ast.Inspect(n.Body, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.AssignStmt:
					found = found || slices.ContainsFunc(m.Lhs, func(l ast.Expr) bool { return varOf(info, l) == obj })
				case *ast.IncDecStmt:
					found = found || varOf(info, m.X) == obj
				}
				return !found
			})
		}
		return !found
	})
	return found
}

// freshTimer reports whether receiving from e waits on a timer started in
// this run (case <-time.After(d) inside the loop): it restarts each time
// round, so it is a pause rather than a deadline.
func (sc *scope) freshTimer(e ast.Expr) bool {
	info := sc.pass.TypesInfo
	isTimer := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		return ok && isTimeFunc(funcOf(info, call), "After", "NewTimer")
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
	if isTimeFunc(fn, "Now", "Since", "Until") {
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
