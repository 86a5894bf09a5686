package lockmodel

// Whether an INCR's count only opens a window: a lockout's or rate
// limit's counter, which takes nothing whatever its key is called.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// windowOnly reports whether c's count, an INCR's reply, is used by
// `if n == 1 { <TTL of the same key> }` and otherwise only held against a
// threshold (n >= max) and handed back: the first increment starts a
// lockout or rate-limit window and the count decides nothing else, so
// the INCR takes nothing, whatever the key is called. A count handed
// back with no threshold beside it is left to its caller. Beside a
// threshold, a count used as a number (a coupon's uses written back to
// its record) is still a count; compared any other way (n != 1, n > 1)
// it says whether the key was taken.
func (b *builder) windowOnly(c *Call) bool {
	vars := b.replyVars(c)
	windows, limits, returned, other, compared := 0, 0, false, false, false
	ast.Inspect(c.Func, func(n ast.Node) bool {
		if compared {
			return false
		}
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if b.againstLimit(n, vars) {
				limits++
				return false
			}
			if b.comparesCount(n, vars) {
				compared = true
				return false
			}
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if b.isCountVar(r, vars) {
					returned = true
				} else {
					ast.Inspect(r, func(m ast.Node) bool {
						// A test handed back (return n > 5) decides
						// more than the window's TTL.
						if be, ok := m.(*ast.BinaryExpr); ok && b.comparesCount(be, vars) {
							compared = true
						}
						if id, ok := m.(*ast.Ident); ok && b.usesVar(id, vars) {
							other = true
						}
						return !compared
					})
				}
			}
			return false
		case *ast.IfStmt:
			if b.startsWindow(c, n, vars) {
				windows++
				// The count's use in the condition is the window's; the
				// INCR itself may be the Init.
				if n.Init != nil {
					ast.Inspect(n.Init, func(m ast.Node) bool {
						if id, ok := m.(*ast.Ident); ok && b.usesVar(id, vars) {
							other = true
						}
						return !other
					})
				}
				return false
			}
		case *ast.Ident:
			if b.usesVar(n, vars) {
				other = true
			}
		}
		return !compared
	})
	return windows > 0 && !compared && (limits > 0 || !other && !returned)
}

// comparesCount reports whether be compares the count in vars (perhaps
// converted) with something.
func (b *builder) comparesCount(be *ast.BinaryExpr, vars []types.Object) bool {
	switch be.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return b.isCountVar(be.X, vars) || b.isCountVar(be.Y, vars)
	}
	return false
}

// againstLimit reports whether be holds the count in vars (perhaps
// converted, int(n)) against a threshold: an ordered comparison with a
// variable or a constant of 3 or more, which no INCR lock's test is
// (n > 1 and n >= 2 say the key is taken).
func (b *builder) againstLimit(be *ast.BinaryExpr, vars []types.Object) bool {
	switch be.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return false
	}
	for i, side := range []ast.Expr{be.X, be.Y} {
		if !b.isCountVar(side, vars) {
			continue
		}
		other := ast.Unparen([]ast.Expr{be.Y, be.X}[i])
		if n, ok := b.constInt(other); ok {
			return n >= 3
		}
		if tv, ok := b.pass.TypesInfo.Types[other]; ok && tv.Value != nil {
			return false
		}
		return true
	}
	return false
}

// isCountVar reports whether e reads one of vars, perhaps through a
// conversion (int(n)).
func (b *builder) isCountVar(e ast.Expr, vars []types.Object) bool {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if tv, ok := b.pass.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
			e = ast.Unparen(call.Args[0])
		}
	}
	id, ok := e.(*ast.Ident)
	return ok && b.usesVar(id, vars)
}

// replyVars returns the variables c's reply is assigned to in its own
// statement (v, err := rdb.Get(ctx, k).Result(), or through the client's
// Do for rueidis and valkey-go).
func (b *builder) replyVars(c *Call) []types.Object {
	r, around := b.reply(c)
	as, ok := around.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || as.Rhs[0] != r || len(as.Lhs) == 0 {
		return nil
	}
	if obj := b.objOf(as.Lhs[0]); obj != nil {
		return []types.Object{obj}
	}
	return nil
}

// countAgainstLimit reports whether an INCR's count is compared with a
// limit (n < max, n >= 5) and never with 1: a rate limit's or lockout's
// counter, whose increment takes nothing.
func (b *builder) countAgainstLimit(c *Call) bool {
	vars := b.replyVars(c)
	if len(vars) == 0 {
		return false
	}
	found := false
	ast.Inspect(c.Func, func(n ast.Node) bool {
		be, ok := n.(*ast.BinaryExpr)
		if !ok || found {
			return !found
		}
		switch be.Op {
		case token.LSS, token.LEQ, token.GTR, token.GEQ:
			for _, side := range []ast.Expr{be.X, be.Y} {
				if id, ok := ast.Unparen(side).(*ast.Ident); ok && b.usesVar(id, vars) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// usesVar reports whether id reads one of vars (its definition does not).
func (b *builder) usesVar(id *ast.Ident, vars []types.Object) bool {
	obj := b.pass.TypesInfo.Uses[id]
	return obj != nil && slices.Contains(vars, obj)
}

// startsWindow reports whether s is `if [... &&] n == 1 [&& ...] { body }`
// with no else, n being c's count, the other conjuncts not reading it, and
// a body of statements that only set the TTL of c's key.
func (b *builder) startsWindow(c *Call, s *ast.IfStmt, vars []types.Object) bool {
	if s.Else != nil || len(s.Body.List) == 0 {
		return false
	}
	r, _ := b.reply(c)
	isCount := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if e == ast.Unparen(r) {
			return true
		}
		id, ok := e.(*ast.Ident)
		return ok && b.usesVar(id, vars)
	}
	ones := 0
	var conjuncts func(e ast.Expr) bool
	conjuncts = func(e ast.Expr) bool {
		be, ok := ast.Unparen(e).(*ast.BinaryExpr)
		if ok && be.Op == token.LAND {
			return conjuncts(be.X) && conjuncts(be.Y)
		}
		if ok && be.Op == token.EQL {
			for i, side := range []ast.Expr{be.X, be.Y} {
				if n, isOne := b.constInt(ast.Unparen([]ast.Expr{be.Y, be.X}[i])); isOne && n == 1 && isCount(side) {
					ones++
					return true
				}
			}
		}
		reads := false
		ast.Inspect(e, func(n ast.Node) bool {
			if x, ok := n.(ast.Expr); ok && isCount(x) {
				reads = true
			}
			return !reads
		})
		return !reads
	}
	if !conjuncts(s.Cond) || ones != 1 {
		return false
	}
	for _, st := range s.Body.List {
		switch st := st.(type) {
		case *ast.ExprStmt:
		case *ast.AssignStmt:
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
					return false
				}
			}
		default:
			return false
		}
		ttls := 0
		ok := true
		ast.Inspect(st, func(n ast.Node) bool {
			call, isCall := n.(*ast.CallExpr)
			if !isCall {
				return ok
			}
			if e := b.m.byID[call]; e != nil {
				if !e.Command.IsExpire() || !b.m.SameKey(c, c.Key(), e, e.Key()) {
					ok = false
				}
				ttls++
			}
			return ok
		})
		if !ok || ttls == 0 {
			return false
		}
	}
	return true
}
