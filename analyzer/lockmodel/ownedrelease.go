package lockmodel

// Owner-checked releases: a script that deletes a key only when its value
// is the caller's, or DELEX IFEQ. Only a lock is given back so; a helper
// that does it for the key it is passed (releaseOwned(ctx, rdb, key,
// token)) says, where it is called after a take of the same key, that the
// take was a lock's, whatever the key is called.

import (
	"go/ast"
	"go/types"
)

// ownedDeletes returns the keys c deletes only after comparing their
// value with one the caller passes.
func (m *Model) ownedDeletes(c *Call) []ast.Expr {
	switch {
	case c.Command == CmdDelEx && c.Flags&FlagIFEQ != 0 && len(c.Keys) > 0:
		return c.Keys[:1]
	case c.Command != CmdEval:
		return nil
	}
	text, ok := m.ScriptText(c)
	if !ok {
		return nil
	}
	calls := LuaCalls(text.Text)
	var out []ast.Expr
	for _, w := range calls {
		if k := w.Key(); w.Removes() && k > 0 && k <= len(c.Keys) && LuaChecked(calls, w, k) {
			out = append(out, c.Keys[k-1])
		}
	}
	return out
}

// ownedReleasers finds, once per package, the functions of the package
// whose own body (not a closure or a deferred call in it) releases, owner
// checked, the key one of its parameters holds: the index of that
// parameter, by function.
func (m *Model) ownedReleasers() map[*types.Func]int {
	var out map[*types.Func]int
	for _, c := range m.Calls {
		if c.Decl == nil || c.Func != c.Decl || c.Deferred || c.Queued {
			continue
		}
		fn, _ := m.Pass.TypesInfo.Defs[c.Decl.Name].(*types.Func)
		if fn == nil {
			continue
		}
		for _, k := range m.ownedDeletes(c) {
			if i, ok := m.paramOf(fn, k); ok {
				if out == nil {
					out = map[*types.Func]int{}
				}
				out[fn] = i
				break
			}
		}
	}
	return out
}

// releasedOwnedAfter reports whether c's function, after c, passes key to
// a helper of the package that releases it owner checked.
func (m *Model) releasedOwnedAfter(c *Call, key keyRef) bool {
	if c.Decl == nil {
		return false
	}
	for fn, i := range m.ownedRelease {
		for _, s := range m.defs.calls[fn] {
			if s.fn != c.Decl || s.call.Pos() <= c.Pos() || i >= len(s.call.Args) || s.call.Ellipsis.IsValid() {
				continue
			}
			if a := s.call.Args[i]; m.KeyID(a) == key.id && !m.defs.assignedBetween(key.expr, c.Pos(), s.call.Pos()) {
				return true
			}
		}
	}
	return false
}
