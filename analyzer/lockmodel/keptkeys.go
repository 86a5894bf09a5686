package lockmodel

// Keys kept in a slice: a worker takes one lock per shard with SET NX,
// appends each key it won to a slice, and renews or gives them back in a
// loop over it. An element is a lock key when every key the slice ever
// receives is one its function acquired first.

import (
	"go/ast"
	"go/types"
)

// keptSlices finds, once per package, the slices (locals or fields) that
// receive at least one key and only keys acquired before, in the function
// that appends them.
func (m *Model) keptSlices() map[types.Object]bool {
	var out map[types.Object]bool
	try := func(obj types.Object) {
		if _, ok := obj.Type().Underlying().(*types.Slice); !ok {
			return
		}
		stores, ok := m.defs.appended(obj)
		if !ok || len(stores) == 0 {
			return
		}
		for _, s := range stores {
			if !m.acquiredBeforeStore(s) {
				return
			}
		}
		if out == nil {
			out = map[types.Object]bool{}
		}
		out[obj] = true
	}
	for obj := range m.defs.fields {
		try(obj)
	}
	for obj := range m.defs.vars {
		try(obj)
	}
	return out
}

// acquiredBeforeStore reports whether s stores a key that its function
// acquired before it.
func (m *Model) acquiredBeforeStore(s fieldStore) bool {
	if s.fn == nil {
		return false
	}
	for _, a := range m.Calls {
		if a.Acquires() && a.Decl == s.fn && a.Pos() < s.val.Pos() && m.sameKeyBetween(a.Key(), a.Pos(), s.val, s.val.Pos()) {
			return true
		}
	}
	return false
}

// keptElement reports whether key is an element of a kept slice: an index
// into it, or the value of a range over it that nothing reassigns.
func (m *Model) keptElement(key ast.Expr) bool {
	if len(m.kept) == 0 {
		return false
	}
	var slice ast.Expr
	switch e := ast.Unparen(key).(type) {
	case *ast.IndexExpr:
		slice = e.X
	case *ast.Ident:
		slice = m.rangedOver(e)
	}
	if slice == nil {
		return false
	}
	info := m.Pass.TypesInfo
	switch s := ast.Unparen(slice).(type) {
	case *ast.Ident:
		return m.kept[info.Uses[s]]
	case *ast.SelectorExpr:
		if sel := info.Selections[s]; sel != nil && sel.Kind() == types.FieldVal {
			return m.kept[sel.Obj()]
		}
	}
	return false
}

// rangedOver returns the slice that id, the value of a range statement
// assigned nowhere else, ranges over, or nil.
func (m *Model) rangedOver(id *ast.Ident) ast.Expr {
	v, _ := m.Pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil || v.IsField() {
		return nil
	}
	defs := m.defs.vars[v]
	if len(defs) != 1 || defs[0].addr || defs[0].val != nil || defs[0].fn == nil {
		return nil
	}
	var over ast.Expr
	ast.Inspect(defs[0].fn, func(n ast.Node) bool {
		r, ok := n.(*ast.RangeStmt)
		if over != nil || !ok {
			return over == nil
		}
		if val, ok := r.Value.(*ast.Ident); ok && m.Pass.TypesInfo.Defs[val] == v {
			over = r.X
		}
		return over == nil
	})
	return over
}
