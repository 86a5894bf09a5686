package lockmodel

// Locks with no lease: a key that every acquire takes with no TTL and
// nothing ever gives one, so that it is held until its holder deletes it.

import "go/ast"

// NoLease reports whether k, a key of c, is taken in this package with
// no expiry, in a package that gives no lock a lease: no acquire sets a
// TTL, and no command gives one (an EXPIRE, a script). Such a lock cannot lapse, so its holder's plain DEL cannot
// remove a later holder's lock; the missing TTL is the acquire's defect
// (setnxexpire), not the release's.
func (m *Model) NoLease(c *Call, k ast.Expr) bool {
	id := m.KeyID(k)
	fam, famOK := m.counterFamily(k)
	same := func(o ast.Expr) bool {
		if id != "" && m.KeyID(o) == id {
			return true
		}
		f, ok := m.counterFamily(o)
		return famOK && ok && f == fam
	}
	taken := false
	for _, o := range m.Calls {
		if o == c {
			continue
		}
		// A lease given anywhere in the package may be this key's under
		// another name (a constructor takes the key with a TTL and stores
		// it in the field the release reads): only a package that gives
		// no lock a lease is known to give this one none.
		if o.Command == CmdEval || o.Command.IsExpire() || o.Acquires() && !o.NoTTL {
			return false
		}
		for _, ok := range o.Keys {
			taken = taken || o.Acquires() && same(ok)
		}
	}
	return taken
}
