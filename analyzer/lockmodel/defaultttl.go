package lockmodel

import (
	"go/ast"
	"go/token"
	"go/types"
)

// expiry sets c.NoTTL from c.TTL and, for a SETNX whose TTL variable is
// zero unless one branch sets it, c.TTLBranch.
func (b *builder) expiry(c *Call) {
	c.NoTTL = b.noTTL(c.TTL)
	if !c.NoTTL && c.Command == CmdSetNX {
		c.TTLBranch = b.zeroUnless(c.TTL, c.Pos())
		c.NoTTL = c.TTLBranch != nil
	}
}

// zeroUnless returns the if statement that alone may give the TTL
// variable e a value other than zero: ttl := time.Duration(0) (or var ttl
// time.Duration) among the function's top statements, then
// if opts.TTL != nil { ttl = *opts.TTL } with no else, before the call at
// at. Every path that skips the branch sends zero, so the acquire has no
// expiry by default. It returns nil for any other shape: a default that is
// not zero, an else, a second branch, a loop, a closure.
func (b *builder) zeroUnless(e ast.Expr, at token.Pos) *ast.IfStmt {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := b.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || !isNumber(v.Type()) {
		return nil
	}
	zero := false
	var branch *ast.IfStmt
	for _, x := range b.m.defs.vars[v] {
		if x.addr || x.fn == nil || x.fn.Body == nil {
			return nil
		}
		top := topStmt(x.fn.Body, x.pos)
		switch s := top.(type) {
		case *ast.AssignStmt, *ast.DeclStmt:
			if zero || !(x.zero || x.val != nil && b.noTTL(x.val)) {
				return nil
			}
			zero = true
		case *ast.IfStmt:
			if s.Else != nil || branch != nil && branch != s || !within(x.pos, s.Body) {
				return nil
			}
			branch = s
		default:
			return nil
		}
	}
	if !zero || branch == nil || at < branch.End() {
		return nil
	}
	return branch
}

// topStmt returns the statement of body that contains pos.
func topStmt(body *ast.BlockStmt, pos token.Pos) ast.Stmt {
	for _, s := range body.List {
		if within(pos, s) {
			return s
		}
	}
	return nil
}
