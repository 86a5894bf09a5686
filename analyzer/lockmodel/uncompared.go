package lockmodel

import (
	"go/ast"
	"go/types"
)

// Uncompared reports whether the value c stores is one nothing can
// compare: no script, SET IFEQ, DELEX IFEQ or compared GET of the package
// reads c's key (or a key of its family), the package does delete or
// expire the key with a command of its own, and the value stays in c's
// function (made there of nothing that leaves it), so that no caller can
// hold it for a check the package does not see. Such a key is released
// without an owner check (unconditionaldel's question); what it stores
// proves nothing to anyone.
func (m *Model) Uncompared(c *Call) bool {
	if c.Value == nil || c.Key() == nil || !m.valueStaysLocal(c) {
		return false
	}
	same, ok := m.sameKeyOf(c)
	if !ok || m.valueChecked(c) {
		return false
	}
	released := false
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
			case o.Command.IsDelete() || o.Command.IsExpire():
				released = true
			}
		}
	}
	return released
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

// valueStaysLocal reports whether c's value is made in c's function of
// nothing that leaves it: no field, parameter or package variable, and
// only locals named nowhere else there but in their own definitions and
// in the value.
func (m *Model) valueStaysLocal(c *Call) bool {
	info := m.Pass.TypesInfo
	body := FuncBody(c.Func)
	if body == nil {
		return false
	}
	vars := map[*types.Var]bool{}
	local := true
	ast.Inspect(c.Value, func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.SelectorExpr:
			if sel := info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
				local = false
			}
		case *ast.Ident:
			if v, ok := info.Uses[e].(*types.Var); ok {
				if v.Pos() < body.Pos() || v.Pos() >= body.End() {
					local = false
				}
				vars[v] = true
			}
		}
		return local
	})
	if !local {
		return false
	}
	for v := range vars {
		if !m.namedOnlyIn(body, v, c.Value) {
			return false
		}
	}
	return true
}

// namedOnlyIn reports whether v, a local of body, is named there only in
// its own definitions and inside within.
func (m *Model) namedOnlyIn(body ast.Node, v *types.Var, within ast.Node) bool {
	info := m.Pass.TypesInfo
	defined, other := false, false
	ast.Inspect(body, func(n ast.Node) bool {
		if other || n == within {
			return false
		}
		use, ok := n.(*ast.Ident)
		if !ok {
			return true
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
