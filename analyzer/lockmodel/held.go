package lockmodel

// Whether the package holds what an acquire takes: a key that something
// releases is a lock; one that nothing releases is a marker.

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// Held reports whether the package treats c's key as held: c's own
// function is a lock function by its name, or the package releases the
// key (Released).
func (m *Model) Held(c *Call) bool {
	if ev, _ := m.LockKey(c, c.Key()); ev == ByFunc {
		return true
	}
	return m.Released(c)
}

// Released reports whether the package deletes, expires or releases
// (with a script) c's key, or a key of its family, somewhere, directly
// or by passing it, in c's function, to a function of its own that does
// (release(conn, key)), to one of another package that drops the key it
// is given, or to the lock library's release. A set-if-absent whose key nothing releases
// is a default or a one-time marker.
func (m *Model) Released(c *Call) bool {
	info := m.Pass.TypesInfo
	id := m.KeyID(c.Key())
	fam, famOK := m.counterFamily(c.Key())
	releasers := map[*types.Func]bool{}
	for _, o := range m.Calls {
		if o == c || o.Acquires() {
			continue
		}
		if !o.Command.IsDelete() && !o.Command.IsExpire() && o.Command != CmdDelEx && o.Command != CmdEval {
			continue
		}
		for _, k := range o.Keys {
			if m.KeyID(k) == id {
				return true
			}
			// "lock:"+id taken in one function and dropped in another.
			if f, ok := m.counterFamily(k); famOK && ok && f == fam {
				return true
			}
		}
		if o.Decl != nil {
			if fn, ok := info.Defs[o.Decl.Name].(*types.Func); ok {
				releasers[fn] = true
			}
		}
	}
	if d := m.droppedByOthers(); d["id "+id] || famOK && d["family "+fam] {
		return true
	}
	if c.Func == nil {
		return false
	}
	found := false
	ast.Inspect(c.Func, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok {
			return !found
		}
		// A framework's Unlock(key) of another package that drops the
		// key it is given (DropsKey) releases it too.
		if fn, _ := typeutil.Callee(info, call).(*types.Func); fn != nil && (releasers[fn.Origin()] || IsLibraryRelease(fn) || fn.Pkg() != m.Pass.Pkg && m.Drops(fn)) {
			for _, a := range call.Args {
				if m.KeyID(a) == id {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// droppedByOthers returns the identities and families of the keys that some call of
// the package hands to a function of another package that drops the key
// it is given: a framework's Unlock(h.lockKey()) in Finalize releases
// what NewHandler took with TryLock(h.lockKey(), 0).
func (m *Model) droppedByOthers() map[string]bool {
	m.droppedOnce.Do(func() {
		m.dropped = map[string]bool{}
		info := m.Pass.TypesInfo
		for _, f := range m.Pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				fn, _ := typeutil.Callee(info, call).(*types.Func)
				if fn == nil || fn.Pkg() == nil || fn.Pkg() == m.Pass.Pkg || !m.Drops(fn) {
					return true
				}
				for _, a := range call.Args {
					if typesx.IsString(info.TypeOf(a)) {
						m.dropped["id "+m.KeyID(a)] = true
						if fam, ok := m.counterFamily(a); ok {
							m.dropped["family "+fam] = true
						}
					}
				}
				return true
			})
		}
	})
	return m.dropped
}
