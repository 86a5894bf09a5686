package lockmodel

import (
	"go/ast"
	"go/constant"
	"go/types"
	"slices"
)

// Uncompared reports whether the value c stores is one nothing can
// compare: no script, SET IFEQ, DELEX IFEQ or compared GET of the package
// reads c's key (or a key of its family), the package does delete or
// expire the key with a command of its own (or through a helper that
// the callers of c's pair with it), and the value stays in c's
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
	value, stored := constValue(m.Pass.TypesInfo, c.Value)
	released := false
	take, paired := m.paired.calls[c]
	for _, o := range m.Calls {
		if o == c || o.Acquires() {
			continue
		}
		if drop, ok := m.paired.calls[o]; paired && ok && drop.Take == take.Take && o.Command.IsDelete() {
			// The delete of a helper its callers pair with c's helper,
			// on the same argument: c's key under another name.
			released = true
			continue
		}
		for _, k := range o.Keys {
			if !same(k) && !m.sameParamKey(c, c.Key(), o, k) {
				continue
			}
			switch {
			case o.Command == CmdGet && o.Compared:
				return false
			case o.Command == CmdGet && stored && slices.Contains(m.constCompares[o], value):
				// A constant token compared with itself.
				return false
			case o.Command == CmdEval:
				// A script valueChecked could not read may compare.
				if _, known := m.scriptCompares(o, same); !known {
					return false
				}
			case o.Command.IsDelete() || o.Command.IsExpire() && !m.splitTTL(o):
				// An EXPIRE that gives the take its TTL is part of the
				// take, not a renewal.
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
// nothing that leaves it: no field or package variable, only locals
// named nowhere else there but in their own definitions and in the
// value, and only parameters named nowhere else in the function, of a
// function whose callers are all in sight and each pass such a value
// (tryLock(user, time.Now().Unix())).
func (m *Model) valueStaysLocal(c *Call) bool {
	if c.Func != c.Decl || c.Decl == nil {
		return m.staysIn(c.Value, c.Func, nil, 0)
	}
	return m.staysIn(c.Value, c.Func, c.Decl, 0)
}

// staysIn is valueStaysLocal for value in fn (a declaration or a
// literal); decl is fn when it is a declaration whose parameters may be
// followed to its callers.
func (m *Model) staysIn(value ast.Expr, fn ast.Node, decl *ast.FuncDecl, depth int) bool {
	info := m.Pass.TypesInfo
	body := FuncBody(fn)
	if body == nil || depth > maxDepth {
		return false
	}
	vars := map[*types.Var]bool{}
	params := map[*types.Var]param{}
	local := true
	ast.Inspect(value, func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.SelectorExpr:
			if sel := info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
				local = false
			}
		case *ast.Ident:
			v, ok := info.Uses[e].(*types.Var)
			if !ok {
				break
			}
			if v.Pos() >= body.Pos() && v.Pos() < body.End() {
				vars[v] = true
				break
			}
			p, ok := m.defs.params[v]
			if !ok || decl == nil || info.Defs[decl.Name] != p.fn {
				local = false
				break
			}
			params[v] = p
		}
		return local
	})
	if !local {
		return false
	}
	for v := range vars {
		if !m.namedOnlyIn(body, v, value) {
			return false
		}
	}
	for v, p := range params {
		if !m.usedOnlyIn(body, v, value) {
			return false
		}
		sites, ok := m.defs.calledOnly(p.fn, true)
		if !ok {
			return false
		}
		for _, s := range sites {
			if s.fn == nil || len(s.call.Args) <= p.index || s.call.Ellipsis.IsValid() || !m.staysIn(s.call.Args[p.index], s.fn, s.fn, depth+1) {
				return false
			}
		}
	}
	return true
}

// usedOnlyIn reports whether v is named in body only inside within.
func (m *Model) usedOnlyIn(body ast.Node, v *types.Var, within ast.Node) bool {
	other := false
	ast.Inspect(body, func(n ast.Node) bool {
		if other || n == within {
			return false
		}
		if use, ok := n.(*ast.Ident); ok && m.Pass.TypesInfo.Uses[use] == v {
			other = true
		}
		return !other
	})
	return !other
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

// constValue is the text a GET returns of a constant value e.
func constValue(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil {
		return "", false
	}
	if tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value), true
	}
	return tv.Value.ExactString(), true
}
