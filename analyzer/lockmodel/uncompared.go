package lockmodel

import (
	"go/ast"
	"go/types"
)

// Uncompared reports whether the value c stores is one nothing can
// compare: no script, SET IFEQ, DELEX IFEQ or compared GET of the package
// reads c's key (or a key of its family), the package does delete the
// key with a command of its own, and the value stays in c's function
// (written in the acquire, or a local named only there), so that no
// caller can hold it for a check the package does not see. Such a key is
// released without an owner check (unconditionaldel's question); what it
// stores proves nothing to anyone.
func (m *Model) Uncompared(c *Call) bool {
	if c.Value == nil || c.Key() == nil || !m.valueStaysLocal(c) {
		return false
	}
	same, ok := m.sameKeyOf(c)
	if !ok || m.valueChecked(c) {
		return false
	}
	deleted := false
	for _, o := range m.Calls {
		if o == c || o.Acquires() {
			continue
		}
		for _, k := range o.Keys {
			if !same(k) {
				continue
			}
			switch {
			case o.Command == CmdGet && o.Compared:
				return false
			case o.Command.IsDelete():
				deleted = true
			}
		}
	}
	return deleted
}

// sameKeyOf returns a test of whether a key is c's, by identity or by
// family ("lock:"+name in Lock and in Unlock).
func (m *Model) sameKeyOf(c *Call) (func(ast.Expr) bool, bool) {
	id := m.KeyID(c.Key())
	if id == "" {
		return nil, false
	}
	fam, byFam := m.counterFamily(c.Key())
	return func(k ast.Expr) bool {
		if m.KeyID(k) == id {
			return true
		}
		f, ok := m.counterFamily(k)
		return byFam && ok && f == fam
	}, true
}

// valueStaysLocal reports whether c's value is written in the acquire
// itself, or is a local variable of c's function named nowhere else
// there but in its own definition.
func (m *Model) valueStaysLocal(c *Call) bool {
	id, ok := ast.Unparen(c.Value).(*ast.Ident)
	if !ok {
		_, lit := ast.Unparen(c.Value).(*ast.BasicLit)
		_, call := ast.Unparen(c.Value).(*ast.CallExpr)
		return lit || call
	}
	info := m.Pass.TypesInfo
	v, ok := info.Uses[id].(*types.Var)
	body := FuncBody(c.Func)
	if !ok || body == nil || v.Pos() < body.Pos() || v.Pos() >= body.End() {
		return false
	}
	defined, other := false, false
	ast.Inspect(body, func(n ast.Node) bool {
		use, ok := n.(*ast.Ident)
		if !ok || use == id {
			return !other
		}
		if info.Defs[use] == v {
			defined = true
		} else if info.Uses[use] == v {
			other = true
		}
		return !other
	})
	return defined && !other
}
