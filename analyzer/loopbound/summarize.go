package loopbound

// What a helper's tested result depends on: the walk that builds its summary.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/locklint/locklint/internal/typesx"
)

// resultIndex returns the result a caller tests: the first bool, else
// the first error; -1 when there is neither.
func resultIndex(sig *types.Signature) int {
	res := sig.Results()
	for i := range res.Len() {
		if typesx.IsBool(res.At(i).Type()) {
			return i
		}
	}
	for i := range res.Len() {
		if typesx.IsError(res.At(i).Type()) {
			return i
		}
	}
	return -1
}

// summarize reads what a function's tested result depends on: the
// expressions it returns there and the conditions in its body. A result
// that is the same constant on every return (a policy that always says
// yes) bounds nothing.
func (s *summaries) summarize(sig *types.Signature, body *ast.BlockStmt, lit *ast.FuncLit) *summary {
	idx := resultIndex(sig)
	if idx < 0 {
		return nil
	}
	info := s.pass.TypesInfo
	inputs := map[types.Object]int{}
	if r := sig.Recv(); r != nil {
		inputs[r] = -1
	}
	for i := range sig.Params().Len() {
		inputs[sig.Params().At(i)] = i
	}
	var nodes []ast.Node
	var consts []string
	constant, bare := true, false
	typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			var e ast.Expr
			switch {
			case len(n.Results) == sig.Results().Len():
				e = n.Results[idx]
			case len(n.Results) == 1:
				e = n.Results[0] // return f()
			default: // a bare return: the named result's assignments
				constant, bare = false, true
				return false, false
			}
			nodes = append(nodes, e)
			if tv, ok := info.Types[e]; ok && tv.Value != nil {
				consts = append(consts, tv.Value.ExactString())
			} else if ok && tv.IsNil() {
				consts = append(consts, "nil")
			} else {
				constant = false
			}
		case *ast.IfStmt:
			nodes = append(nodes, n.Cond)
		case *ast.ForStmt:
			if n.Cond != nil {
				nodes = append(nodes, n.Cond)
			}
		case *ast.SwitchStmt:
			if n.Tag != nil {
				nodes = append(nodes, n.Tag)
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				nodes = append(nodes, e)
			}
		case *ast.CommClause:
			if n.Comm != nil {
				nodes = append(nodes, n.Comm)
			}
		}
		return false, false
	})
	if constant {
		same := true
		for _, c := range consts {
			same = same && c == consts[0]
		}
		if same {
			return nil
		}
	}
	sc := newScope(s.pass, body, body, nil, nil, nil)
	if bare {
		for _, v := range sc.values[sig.Results().At(idx)] {
			nodes = append(nodes, v)
		}
	}

	// The inputs e depends on, through the body's variables.
	free := func(obj types.Object) bool {
		v, ok := obj.(*types.Var)
		return ok && lit != nil && !v.IsField() && v.Parent() != nil && v.Parent() != s.pass.Pkg.Scope() &&
			(obj.Pos() < lit.Pos() || obj.Pos() >= lit.End())
	}
	var uses func(e ast.Node, seen map[types.Object]bool, params map[int]bool, frees map[types.Object]bool)
	uses = func(e ast.Node, seen map[types.Object]bool, params map[int]bool, frees map[types.Object]bool) {
		typesx.OutsideClosures(e, func(x ast.Node) (bool, bool) {
			id, ok := x.(*ast.Ident)
			if !ok {
				return false, false
			}
			obj := info.Uses[id]
			if obj == nil || seen[obj] {
				return false, false
			}
			seen[obj] = true
			if i, ok := inputs[obj]; ok {
				params[i] = true
			} else if free(obj) {
				frees[obj] = true
			}
			for _, v := range sc.values[obj] {
				uses(v, seen, params, frees)
			}
			return false, false
		})
	}
	// The comparisons and receives the result depends on.
	var comparisons []ast.Node
	// Calls of clock helpers: a bound on what this function passes them.
	type clockCall struct {
		call *ast.CallExpr
		sm   *summary
	}
	var clocks []clockCall
	ctx := false
	seen := map[types.Object]bool{}
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		typesx.OutsideClosures(n, func(x ast.Node) (bool, bool) {
			switch x := x.(type) {
			case *ast.CallExpr:
				fn := funcOf(info, x)
				switch {
				case contextCall(fn):
					ctx = true
				case timeComparison(fn):
					comparisons = append(comparisons, x)
				default:
					switch sm := s.of(x); {
					case sm == nil:
					case sm.kind == kindContext:
						ctx = true
					case sm.kind == kindClock && len(sm.free) == 0:
						clocks = append(clocks, clockCall{x, sm})
					}
				}
			case *ast.UnaryExpr:
				if x.Op == token.ARROW && !isTickerChan(info, x.X) && !sc.freshTimer(x.X) {
					params, frees := map[int]bool{}, map[types.Object]bool{}
					uses(x.X, map[types.Object]bool{}, params, frees)
					ctx = ctx || len(params) > 0 || len(frees) > 0
				}
			case *ast.BinaryExpr:
				if isComparison(x.Op) {
					comparisons = append(comparisons, x)
				}
			case *ast.Ident:
				obj := info.Uses[x]
				if isContextErr(obj) {
					ctx = true
				}
				if obj != nil && !seen[obj] {
					seen[obj] = true
					for _, v := range sc.values[obj] {
						walk(v)
					}
				}
			}
			return false, false
		})
	}
	for _, n := range nodes {
		walk(n)
	}
	if ctx {
		return &summary{kind: kindContext}
	}

	var best *summary
	consider := func(k boundKind, params map[int]bool, frees map[types.Object]bool) {
		if best != nil && best.kind <= k {
			return
		}
		sm := &summary{kind: k}
		for i := -1; i < sig.Params().Len(); i++ {
			if !params[i] {
				continue
			}
			sm.params = append(sm.params, i)
			if i < 0 {
				sm.names = append(sm.names, "receiver")
			} else {
				sm.names = append(sm.names, sig.Params().At(i).Name())
			}
		}
		for obj := range frees {
			sm.free = append(sm.free, obj)
		}
		best = sm
	}
	for _, c := range clocks {
		params, frees := map[int]bool{}, map[types.Object]bool{}
		fixed := true
		for _, i := range c.sm.params {
			if a := argOf(info, c.call, i); a != nil {
				fixed = fixed && s.held(a, inputs, sc)
				uses(a, map[types.Object]bool{}, params, frees)
			}
		}
		if fixed {
			consider(kindClock, params, frees)
		}
	}
	for _, c := range comparisons {
		params, frees := map[int]bool{}, map[types.Object]bool{}
		uses(c, map[types.Object]bool{}, params, frees)
		if sc.readings(c, map[types.Object]bool{}) == 1 {
			consider(kindClock, params, frees)
			continue
		}
		if bin, ok := c.(*ast.BinaryExpr); ok && !isNilCompare(info, bin) {
			attempts := map[int]bool{}
			for i := range params {
				if i >= 0 && isAttempt(sig.Params().At(i).Type()) {
					attempts[i] = true
				}
			}
			if len(attempts) > 0 || len(frees) > 0 {
				consider(kindAttempts, attempts, frees)
				continue
			}
			if s.budget(sig, sc, bin) {
				consider(kindBudget, map[int]bool{-1: true}, nil)
			} else if names := receiverFields(info, sig, bin); len(names) > 0 && (best == nil || best.kind > kindFields) {
				best = &summary{kind: kindFields, params: []int{-1}, names: names}
			}
		}
	}
	return best
}

// held reports whether e is what the function holds or is given, not a
// value it makes on each call: its parameters, its receiver, package
// variables and their fields (r.w, not newWindow(d)).
func (s *summaries) held(e ast.Expr, inputs map[types.Object]int, sc *scope) bool {
	info := s.pass.TypesInfo
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr, *ast.FuncLit, *ast.CompositeLit:
			ok = false
		case *ast.Ident:
			if v, isVar := info.Uses[n].(*types.Var); isVar && !v.IsField() {
				if _, in := inputs[v]; !in && (sc.defined[v] || len(sc.values[v]) > 0) {
					ok = false
				}
			}
		}
		return ok
	})
	return ok
}

// isAttempt reports whether a parameter can carry an attempt number: an
// integer, or a type parameter (constrained to integers, or the
// comparison would not compile).
func isAttempt(t types.Type) bool {
	if _, ok := t.(*types.TypeParam); ok {
		return true
	}
	return isInteger(t)
}

// receiverFields returns the names of the receiver's integer fields that a
// comparison reads.
func receiverFields(info *types.Info, sig *types.Signature, c ast.Node) []string {
	recv := sig.Recv()
	if recv == nil {
		return nil
	}
	var names []string
	ast.Inspect(c, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && info.Uses[id] == recv {
				if v, ok := info.Uses[sel.Sel].(*types.Var); ok && v.IsField() && isInteger(v.Type()) && !slices.Contains(names, v.Name()) {
					names = append(names, v.Name())
				}
			}
		}
		return true
	})
	return names
}

func isNilCompare(info *types.Info, b *ast.BinaryExpr) bool {
	isNil := func(e ast.Expr) bool { tv, ok := info.Types[e]; return ok && tv.IsNil() }
	return isNil(b.X) || isNil(b.Y)
}

// budget reports whether a comparison reads a field of a pointer
// receiver that the function steps (b.left--; return b.left > 0): each
// call spends one. On a value receiver the step is lost with the copy.
func (s *summaries) budget(sig *types.Signature, sc *scope, c *ast.BinaryExpr) bool {
	recv := sig.Recv()
	if recv == nil {
		return false
	}
	if _, ok := recv.Type().Underlying().(*types.Pointer); !ok {
		return false
	}
	info := s.pass.TypesInfo
	found := false
	ast.Inspect(c, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && info.Uses[id] == recv && sc.steps[info.Uses[sel.Sel]] {
				found = true
			}
		}
		return !found
	})
	return found
}
