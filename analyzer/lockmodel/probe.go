package lockmodel

// Probes: a key written with SETNX and deleted by the very next
// statement, to learn that the server takes writes. Nothing runs while it
// is there, so it guards nothing; LockKey asks only when the key's name
// says nothing of a lock.

import (
	"go/ast"
	"go/token"
)

// Probe reports whether c, an acquire or a delete, is one half of a
// probe: an acquire whose statement is followed at once, in the same
// block, by a delete of the same key, or that delete.
func (m *Model) Probe(c *Call) bool {
	if c.Func == nil || c.Key() == nil || c.Queued || c.Deferred || !c.Acquires() && !c.Command.IsDelete() {
		return false
	}
	p, ok := m.probes[c]
	if !ok {
		p = m.probePartner(c, c.Acquires()) != nil
		if m.probes == nil {
			m.probes = map[*Call]bool{}
		}
		m.probes[c] = p
	}
	return p
}

// probePartner returns the delete that directly follows acquire c
// (forward), or the acquire that directly precedes delete c.
func (m *Model) probePartner(c *Call, forward bool) *Call {
	list, i := stmtIndex(FuncBody(c.Func), c.Expr.Pos())
	j := i - 1
	if forward {
		j = i + 1
	}
	if i < 0 || j < 0 || j >= len(list) {
		return nil
	}
	other := list[j]
	id := m.KeyID(c.Key())
	for _, o := range m.Calls {
		if o == c || o.Func != c.Func || o.Queued || o.Deferred || o.Key() == nil || !within(o.Expr.Pos(), other) {
			continue
		}
		if forward && !o.Command.IsDelete() || !forward && !o.Acquires() {
			continue
		}
		// An acquire whose reply is read decides something; a delete in
		// a body runs later, if at all.
		if forward && (!dropped(c) || !simpleStmt(other, o.Expr.Pos())) ||
			!forward && (!dropped(o) || !simpleStmt(list[i], c.Expr.Pos())) {
			continue
		}
		if m.KeyID(o.Key()) == id && !m.defs.assignedBetween(o.Key(), min(o.Pos(), c.Pos()), max(o.Pos(), c.Pos())) {
			return o
		}
	}
	return nil
}

// dropped reports whether an acquire's statement drops its reply.
func dropped(c *Call) bool {
	s, ok := c.Stmt.(*ast.ExprStmt)
	return ok && (s.X == c.Expr || s.X == c.Outer)
}

// simpleStmt reports whether the command at pos is the statement s or in
// the part of it that runs first (an if's init or condition), not in a
// body that runs later.
func simpleStmt(s ast.Stmt, pos token.Pos) bool {
	switch s := s.(type) {
	case *ast.ExprStmt, *ast.AssignStmt, *ast.ReturnStmt, *ast.DeclStmt:
		return true
	case *ast.IfStmt:
		return within(pos, s.Init) || within(pos, s.Cond)
	}
	return false
}

// stmtIndex returns the statement list in body, at any depth, one of
// whose statements holds pos, and that statement's index.
func stmtIndex(body *ast.BlockStmt, pos token.Pos) ([]ast.Stmt, int) {
	var list []ast.Stmt
	idx := -1
	if body == nil {
		return nil, idx
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || !within(pos, n) {
			return false
		}
		var stmts []ast.Stmt
		switch n := n.(type) {
		case *ast.BlockStmt:
			stmts = n.List
		case *ast.CaseClause:
			stmts = n.Body
		case *ast.CommClause:
			stmts = n.Body
		}
		for j, s := range stmts {
			if within(pos, s) {
				list, idx = stmts, j
			}
		}
		return true
	})
	return list, idx
}

// within reports whether pos falls inside n.
func within(pos token.Pos, n ast.Node) bool {
	return n != nil && n.Pos() <= pos && pos < n.End()
}
