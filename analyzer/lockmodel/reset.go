package lockmodel

// Resets: a function that deletes a fixed set of lock keys at once,
// taking none of them, to clear what a killed process left behind.

import (
	"go/types"
)

// ResetsLocks reports whether c is one of the deletes of a reset: a
// function declaration that sends nothing but deletes, of two or more
// distinct constant keys (a service's job lock names), none of which it
// takes, called by no function of the package that takes one of them
// before the call. A cron process that clears its job locks before its
// scheduler starts ends no holding of its own: there is no holder whose
// token a check could compare. A helper that gives back the locks its
// caller took after the work is a release, and stays one.
func (m *Model) ResetsLocks(c *Call) bool {
	if !c.Command.IsDelete() || c.Deferred || c.Decl == nil || c.Func != c.Decl {
		return false
	}
	info := m.Pass.TypesInfo
	keys := map[string]bool{}
	for _, o := range m.Calls {
		if o.Decl != c.Decl {
			continue
		}
		if !o.Command.IsDelete() || o.Func != o.Decl || o.Deferred {
			return false
		}
		for _, k := range o.Keys {
			s, ok := constStringOf(info, k)
			if !ok {
				return false
			}
			keys[s] = true
		}
	}
	if len(keys) < 2 {
		return false
	}
	fn, _ := info.Defs[c.Decl.Name].(*types.Func)
	if fn == nil || m.defs.uses[fn] != len(m.defs.calls[fn]) {
		// Named as a value too: called where the model does not look.
		return false
	}
	for _, s := range m.defs.calls[fn] {
		for _, o := range m.Calls {
			if o.Decl == nil || o.Decl != s.fn || !o.Acquires() || o.Pos() > s.call.Pos() || o.Key() == nil {
				continue
			}
			if k, ok := constStringOf(info, o.Key()); ok && keys[k] {
				return false
			}
		}
	}
	return true
}
