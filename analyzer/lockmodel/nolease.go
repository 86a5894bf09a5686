package lockmodel

// Locks with no lease: a key that every acquire takes with no TTL and
// nothing ever gives one, so that it is held until its holder deletes it.

import (
	"go/ast"
	"go/types"

	"github.com/locklint/locklint/internal/typesx"
)

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
	if m.takenOver(c, k, same) {
		return false
	}
	if m.takenHereForGood(c, k, same) {
		return true
	}
	taken := false
	for _, o := range m.Calls {
		if o == c || m.Probe(o) {
			continue
		}
		// A lease given anywhere in the package may be this key's under
		// another name (a constructor takes the key with a TTL and stores
		// it in the field the release reads): only a package that gives
		// no lock a lease is known to give this one none.
		if o.Command == CmdEval || o.Command.IsExpire() || o.Acquires() && (!o.NoTTL || o.TTLBranch != nil) {
			return false
		}
		for _, ok := range o.Keys {
			taken = taken || o.Acquires() && (same(ok) || m.sameParamKey(o, ok, c, k))
		}
	}
	return taken
}

// takenOver reports whether some command of the package takes k over:
// a GETSET (or SET ... GET) with no NX, the takeover of a lock whose
// expiry is the time in its value, which reads the previous holder's
// value as it writes its own. Then the key passes to another holder
// while its first holder still runs, lease or none, and that holder's
// plain DEL removes the new holder's lock. A plain SET is the holder's
// own rewrite (a heartbeat, the claim's next value), no takeover.
func (m *Model) takenOver(c *Call, k ast.Expr, same func(ast.Expr) bool) bool {
	for _, o := range m.Calls {
		if o == c || !o.Overwrites() || o.Flags&FlagGet == 0 {
			continue
		}
		for _, ok := range o.Keys {
			if same(ok) || m.sameParamKey(o, ok, c, k) {
				return true
			}
		}
	}
	return false
}

// sameParamKey reports whether a's key ak and b's key bk are each their
// method's parameter, unchanged or converted, in two methods of one type:
// Lock(key) and Unlock(key) take and drop what their caller names.
func (m *Model) sameParamKey(a *Call, ak ast.Expr, b *Call, bk ast.Expr) bool {
	if a.Decl == nil || b.Decl == nil || a.Decl.Recv == nil || b.Decl.Recv == nil || a.Func != a.Decl || b.Func != b.Decl {
		return false
	}
	fa, _ := m.Pass.TypesInfo.Defs[a.Decl.Name].(*types.Func)
	fb, _ := m.Pass.TypesInfo.Defs[b.Decl.Name].(*types.Func)
	if fa == nil || fb == nil || typesx.RecvBase(a.Decl.Recv.List[0].Type) != typesx.RecvBase(b.Decl.Recv.List[0].Type) {
		return false
	}
	_, okA := m.paramOf(fa, m.unconvert(ak))
	_, okB := m.paramOf(fb, m.unconvert(bk))
	return okA && okB
}

// unconvert strips conversions to a string type: string(key).
func (m *Model) unconvert(e ast.Expr) ast.Expr {
	for {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return e
		}
		tv, ok := m.Pass.TypesInfo.Types[call.Fun]
		if !ok || !tv.IsType() {
			return e
		}
		e = call.Args[0]
	}
}

// takenHereForGood reports whether c's function took k itself, before c,
// with no expiry, and nothing in the package gives a key of k's family
// one (an EXPIRE, a script): the key c deletes is the one this call took,
// and with no lease it cannot have passed to another holder meanwhile.
// Other keys of the package may have leases of their own.
func (m *Model) takenHereForGood(c *Call, k ast.Expr, same func(ast.Expr) bool) bool {
	id := m.KeyID(k)
	if id == "" || c.Func == nil {
		return false
	}
	taken := false
	for _, o := range m.Calls {
		if o == c {
			continue
		}
		for _, ok := range o.Keys {
			if !same(ok) {
				continue
			}
			if o.Command == CmdEval || o.Command.IsExpire() {
				return false
			}
			if o.Acquires() && o.Func == c.Func && m.KeyID(ok) == id {
				if !o.NoTTL || o.End() > c.Pos() || !m.replyKept(o) {
					return false
				}
				taken = true
			}
		}
	}
	return taken
}

// replyKept reports whether c's reply is kept for a test of whether the
// take won: assigned (ok, err := ...; res := ...), not dropped by a
// bare statement or reduced to its error (rdb.SetNX(...).Err()), which
// says nothing of a miss.
func (m *Model) replyKept(c *Call) bool {
	if call, ok := ast.Unparen(c.Outer).(*ast.CallExpr); ok {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Err" {
			return false
		}
	}
	st := c.Stmt
	if ifs, ok := st.(*ast.IfStmt); ok {
		st = ifs.Init
	}
	_, ok := st.(*ast.AssignStmt)
	return ok
}
