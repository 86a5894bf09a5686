package lockmodel

// Keys kept in a slice: a worker takes one lock per shard with SET NX,
// appends each key it won to a slice, and renews or gives them back in a
// loop over it. An element is a lock key when every key the slice ever
// receives is one its function acquired first.

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/locklint/locklint/internal/typesx"
	"golang.org/x/tools/go/ast/astutil"
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

// rollsBackKept reports whether c, a delete of key, gives back the keys
// its own function took and kept in a local slice, in a range over that
// slice that does nothing else, in an if's branch, followed by a return
// of an error: a request that takes several holds (one per seat) and,
// when one of them is held by another, gives back those it took before
// failing.
// The slice is the function's own, so those keys were taken a few round
// trips before, in this call: none can have lapsed and been taken again.
func (m *Model) rollsBackKept(c *Call, key ast.Expr) bool {
	id, ok := ast.Unparen(key).(*ast.Ident)
	if !ok || c.Deferred || c.Decl == nil || c.File == nil || !m.keptElement(key) {
		return false
	}
	slice, ok := ast.Unparen(m.rangedOver(id)).(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := m.Pass.TypesInfo.Uses[slice].(*types.Var)
	if v == nil || v.Pos() < c.Decl.Pos() || v.Pos() >= c.Decl.End() {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(c.File, c.Pos(), c.End())
	for i, n := range path {
		r, ok := n.(*ast.RangeStmt)
		if !ok {
			continue
		}
		if x, ok := ast.Unparen(r.X).(*ast.Ident); !ok || m.Pass.TypesInfo.Uses[x] != v || len(r.Body.List) != 1 || r.Body.List[0] != c.Stmt || i+2 >= len(path) {
			return false
		}
		// In a branch that fails the request, not after its work.
		if _, ok := path[i+2].(*ast.IfStmt); !ok {
			return false
		}
		list := typesx.Stmts(path[i+1])
		at := slices.Index(list, ast.Stmt(r))
		if at < 0 || at+1 >= len(list) {
			return false
		}
		ret, ok := list[at+1].(*ast.ReturnStmt)
		if !ok || len(ret.Results) == 0 {
			return false
		}
		last := ret.Results[len(ret.Results)-1]
		return typesx.IsError(m.Pass.TypesInfo.TypeOf(last)) && !m.Pass.TypesInfo.Types[last].IsNil()
	}
	return false
}
