package lockmodel

// How a command's reply is used: compared with a token (an owner check),
// with the constant 1 (an INCR used as an acquire), read as data, or
// returned to the caller.

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/locklint/locklint/internal/typesx"
)

// constant reports whether e is a constant, or a local variable whose one
// definition is (want := "version-2"; ... if val != want).
func (b *builder) constant(e ast.Expr) bool {
	e = ast.Unparen(e)
	if tv, ok := b.pass.TypesInfo.Types[e]; ok && tv.Value != nil {
		return true
	}
	if def := b.m.keys.definition(b.objOf(e)); def != nil {
		tv, ok := b.pass.TypesInfo.Types[def]
		return ok && tv.Value != nil
	}
	return false
}

// compared reports whether a GET's reply is compared with == or !=: as an
// operand (rdb.Get(ctx, k).Val() == token), or through a variable it is
// assigned to (v, err := rdb.Get(ctx, k).Result(); if v != token).
func (b *builder) compared(cur cursor, c *Call) bool {
	// A reply compared with a constant ("done", "", "1") reads a state
	// flag or asserts a value in a test; an owner token is never a
	// constant, so that is no owner check.
	return b.comparedWith(c, func(other ast.Expr) bool { return !b.constant(other) }) || b.comparedInHelper(c)
}

// comparedOne reports whether an INCR's reply is compared with the
// constant 1: the caller that made the counter 1 holds the key.
func (b *builder) comparedOne(c *Call) bool {
	return b.comparedWith(c, func(other ast.Expr) bool {
		n, ok := b.constInt(ast.Unparen(other))
		return ok && n == 1
	})
}

// comparedWith reports whether c's reply, directly or through the
// variable it is assigned to, is an operand of == or != whose other
// operand satisfies ok.
func (b *builder) comparedWith(c *Call, match func(other ast.Expr) bool) bool {
	vars := b.replyVars(c)
	body := c.Func
	if body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		be, ok := n.(*ast.BinaryExpr)
		if found || !ok || (be.Op != token.EQL && be.Op != token.NEQ) {
			return !found
		}
		for i, side := range []ast.Expr{be.X, be.Y} {
			side = ast.Unparen(side)
			if !match([]ast.Expr{be.Y, be.X}[i]) {
				continue
			}
			if side == c.Outer {
				found = true
			}
			if obj := b.objOf(side); obj != nil {
				for _, v := range vars {
					if v == obj {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// returned reports whether c sits in a return statement of its function.
func returned(c *Call) bool {
	body := FuncBody(c.Func)
	if body == nil {
		return false
	}
	return typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		ret, ok := n.(*ast.ReturnStmt)
		return ok && ret.Pos() <= c.Pos() && c.End() <= ret.End(), false
	})
}

// replyReturned reports whether the first value c's statement assigns
// (the reply: ok in ok, err := rdb.SetNX(...).Result()) is named in a
// return statement of c's function: the caller learns whether it holds
// the key, and may release it elsewhere.
func (m *Model) replyReturned(c *Call) bool {
	as, ok := c.Stmt.(*ast.AssignStmt)
	if !ok || len(as.Lhs) == 0 || !(as.Pos() <= c.Pos() && c.End() <= as.End()) {
		return false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok || id.Name == "_" {
		return false
	}
	info := m.Pass.TypesInfo
	reply := info.ObjectOf(id)
	body := FuncBody(c.Func)
	if reply == nil || body == nil {
		return false
	}
	return typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		ret, ok := n.(*ast.ReturnStmt)
		return ok && refers(info, ret, reply), ok
	})
}

// refers reports whether n names obj.
func refers(info *types.Info, n ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok && info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}
