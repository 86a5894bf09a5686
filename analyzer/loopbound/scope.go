package loopbound

// What changes from one run of a region to the next: its values, counters and fixed variables.

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
	typesx.OutsideClosures(root, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
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
		return false, false
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
