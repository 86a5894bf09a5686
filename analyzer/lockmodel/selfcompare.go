package lockmodel

// Releases that compare a key with itself: GET the key, then run the
// compare-and-delete script with the value just read as the owner. The
// script's check always holds (but for a change between the two round
// trips), so it deletes whoever holds the key.

import (
	"go/ast"
	"go/types"
)

// SelfCompare returns the GET, in c's function, whose reply c, a script
// that deletes one of its KEYS, is given as an argument, when that GET
// reads the key the script deletes; nil otherwise.
func (m *Model) SelfCompare(c *Call) *Call {
	if c.Command != CmdEval || c.Func == nil || len(c.Args) == 0 {
		return nil
	}
	text, ok := m.ScriptText(c)
	if !ok {
		return nil
	}
	deleted := map[string]bool{}
	for _, lc := range LuaCalls(text.Text) {
		if k := lc.Key(); lc.Removes() && k > 0 && k <= len(c.Keys) {
			deleted[m.KeyID(c.Keys[k-1])] = true
		}
	}
	if len(deleted) == 0 {
		return nil
	}
	info := m.Pass.TypesInfo
	for _, a := range c.Args {
		id, ok := ast.Unparen(a).(*ast.Ident)
		if !ok {
			continue
		}
		v, _ := info.Uses[id].(*types.Var)
		if v == nil || len(m.defs.assigns(v)) > 1 {
			continue
		}
		if g := m.readInto(c.Func, v); g != nil && g.Pos() < c.Pos() && g.Key() != nil && deleted[m.KeyID(g.Key())] {
			return g
		}
	}
	return nil
}

// readInto returns the GET in fn whose reply the declaration of v takes
// (v, err := rdb.Get(ctx, k).Result(), v := rdb.Get(ctx, k).Val()).
func (m *Model) readInto(fn ast.Node, v *types.Var) *Call {
	var found *Call
	ast.Inspect(fn, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if found != nil || !ok || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			return found == nil
		}
		lid, ok := as.Lhs[0].(*ast.Ident)
		if !ok || m.Pass.TypesInfo.Defs[lid] != v {
			return true
		}
		ast.Inspect(as.Rhs[0], func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && found == nil {
				if g := m.CallOf(call); g != nil && g.Command == CmdGet {
					found = g
				}
			}
			return found == nil
		})
		return false
	})
	return found
}
