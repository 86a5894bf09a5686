package lockmodel

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/locklint/locklint/internal/typesx"
)

// Renews reports whether c sets the lease of a key that may already exist
// without checking who holds it: an EXPIRE-family command that does not
// end the key at once (EndsNow), or a SET that neither requires the key
// to be absent (NX) nor compares its value (IFEQ).
// Options the model could not read make it false, so passes stay silent.
func (c *Call) Renews() bool {
	return c.Command.IsExpire() && !c.EndsNow || c.Overwrites()
}

// Overwrites reports whether c is a SET with no NX and no IFEQ: it replaces
// the value of the key whoever wrote it.
func (c *Call) Overwrites() bool {
	return c.Command == CmdSet && c.Flags&(FlagNX|FlagIFEQ|FlagUnknown) == 0
}

// ReleasesOrChecks reports whether c could release, renew or check the
// owner of a key: a delete, an expiry, DELEX, a script, a compared GET or
// an IFEQ write.
func (c *Call) ReleasesOrChecks() bool {
	return c.Command.IsDelete() || c.Command.IsExpire() || c.Command == CmdDelEx || c.Command == CmdEval ||
		c.Compared || c.Flags&FlagIFEQ != 0
}

// HolderRecord reports whether c, a plain SET, writes a record of who
// holds a lock beside it: its function acquired another key before it
// (the lock), or every call of its function in the package comes after
// an acquire in the caller (init takes the semaphore's name, then create
// writes its version), and nothing in the package takes c's key with NX.
// Only the holder writes it, after winning, so overwriting it is the
// point; it is neither an acquire without NX nor a renewal.
func (m *Model) HolderRecord(c *Call) bool {
	k := c.Key()
	if !c.Overwrites() || k == nil || c.Decl == nil {
		return false
	}
	id := m.KeyID(k)
	for _, o := range m.Calls {
		if o.Acquires() && o.Key() != nil && m.KeyID(o.Key()) == id {
			return false
		}
	}
	if m.acquiredBefore(c.Decl, c.Pos()) {
		return true
	}
	fn, _ := m.Pass.TypesInfo.Defs[c.Decl.Name].(*types.Func)
	sites := m.defs.calls[fn]
	if fn == nil || len(sites) == 0 {
		return false
	}
	for _, s := range sites {
		if s.fn == nil || !m.acquiredBefore(s.fn, s.call.Pos()) {
			return false
		}
	}
	return true
}

// acquiredBefore reports whether d acquires a key before pos.
func (m *Model) acquiredBefore(d *ast.FuncDecl, pos token.Pos) bool {
	for _, o := range m.Calls {
		if o.Acquires() && o.Key() != nil && o.Decl == d && o.Pos() < pos {
			return true
		}
	}
	return false
}

// compareModes are the conditions of SET and DELEX that compare the
// key's value with the caller's: IFEQ with the value itself, IFDEQ with
// its digest (Redis 8.4). Both check the owner; IFNE and IFDNE act when
// the value differs, which checks nothing a lock needs.
var compareModes = map[string]bool{"IFEQ": true, "IFDEQ": true}

// comparesOwner reports whether mode, a SET or DELEX condition as
// written, compares the key's value with the caller's.
func comparesOwner(mode string) bool { return compareModes[upper(mode)] }

// Watches reports whether c is queued in the MULTI/EXEC of a WATCH on key:
// if the key changed after the WATCH, EXEC aborts, so a read before the
// transaction and the queued write act as one step.
func (m *Model) Watches(c *Call, key ast.Expr) bool {
	if !c.Tx || key == nil {
		return false
	}
	id := m.KeyID(key)
	for _, w := range c.Watched {
		if m.KeyID(w) == id {
			// The check must be read under the WATCH: a GET compared
			// before it leaves a gap the transaction does not see.
			g := m.compareRead(c, id)
			return g == nil || g.Pos() >= c.WatchAt
		}
	}
	return false
}

// CompareRead returns a GET of key earlier in c's function whose reply is
// compared: the first half of a read-compare-then-write done in two round
// trips. A GET whose reply is only printed or returned decides nothing, so
// it is no owner check. The GET's own function must contain c: a GET in a
// sibling closure (one test case of a table, one callback of a suite)
// runs on its own.
func (m *Model) CompareRead(c *Call, key ast.Expr) *Call {
	if key == nil {
		return nil
	}
	return m.compareRead(c, m.KeyID(key))
}

// compareRead is CompareRead for the key whose identity is id.
func (m *Model) compareRead(c *Call, id string) *Call {
	for _, g := range m.Calls {
		if m.readBefore(g, c, id) {
			return g
		}
	}
	return nil
}

// readBefore reports whether g is a compared GET, before c in c's
// function, of the key whose identity is id (see CompareRead).
func (m *Model) readBefore(g, c *Call, id string) bool {
	return g.Command == CmdGet && g.Compared && g.Decl == c.Decl && g.Pos() < c.Pos() && encloses(g.Func, c) &&
		g.Key() != nil && m.KeyID(g.Key()) == id && !m.defs.assignedBetween(g.Key(), g.Pos(), c.Pos())
}

// claimsChecked reports whether c, a SET, writes the key whose identity
// is keyID with the value its function compared the key's value with
// first, and only when the key held that value or its function went on
// past a holder that differs:
// cur := GET key; if cur != "" && cur != id { return }; SET key id, or
// if cur == id || cur == "" { SET key id }. That is a claim of the key
// in two round trips, by usage, whatever else reads the key as data (the
// followers that read the leader's name). A write when the value differs
// (if cur != v { SET key v }) updates a value.
func (m *Model) claimsChecked(c *Call, keyID string) bool {
	if c.Command != CmdSet || c.Value == nil || c.Flags&FlagUnknown != 0 {
		return false
	}
	for _, g := range m.Calls {
		if !m.readBefore(g, c, keyID) {
			continue
		}
		for _, rc := range m.ownerCompares[g] {
			if m.sameKeyBetween(rc.other, g.Pos(), c.Value, c.Pos()) && guardsAsHolder(rc.expr, c) {
				return true
			}
		}
	}
	return false
}

// guardsAsHolder reports whether cmp, reply != v or reply == v, is a
// condition of an if of c's function, joined to the rest of it by && and
// || only, that lets c run only when the reply may be v: != with a body
// that returns, c after the if; == with c in the if's body.
func guardsAsHolder(cmp *ast.BinaryExpr, c *Call) bool {
	body := FuncBody(c.Func)
	if body == nil {
		return false
	}
	return typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || !joined(ifs.Cond, cmp) {
			return false, false
		}
		switch cmp.Op {
		case token.NEQ:
			list := ifs.Body.List
			if len(list) == 0 || c.Pos() < ifs.End() {
				return false, false
			}
			_, exits := list[len(list)-1].(*ast.ReturnStmt)
			return exits, false
		case token.EQL:
			return contains(ifs.Body, c.Expr), false
		}
		return false, false
	})
}

// joined reports whether cond is cmp, or joins it with && or ||.
func joined(cond ast.Expr, cmp *ast.BinaryExpr) bool {
	cond = ast.Unparen(cond)
	if cond == ast.Expr(cmp) {
		return true
	}
	be, ok := cond.(*ast.BinaryExpr)
	return ok && (be.Op == token.LAND || be.Op == token.LOR) && (joined(be.X, cmp) || joined(be.Y, cmp))
}

// WrittenAsValue reports whether the package writes keys of key's family
// with a plain SET (no NX, no IFEQ): a verification code stored by one
// handler and read, compared with the request and deleted by another. A
// GET, a compare and a DEL of such a key consume a value; they are no
// owner check of a lock.
func (m *Model) WrittenAsValue(key ast.Expr) bool {
	fam, ok := m.counterFamily(key)
	return ok && m.familyWritten(fam)
}

// familyWritten is WrittenAsValue for the keys of family fam.
func (m *Model) familyWritten(fam string) bool {
	for _, o := range m.Calls {
		if o.Overwrites() {
			if f, ok := m.counterFamily(o.Key()); ok && f == fam {
				return true
			}
		}
	}
	return false
}

// Counted reports whether the package takes key by counting, with an
// INCR compared with 1 and never a SET NX: a semaphore's permits or a
// first-caller counter. Such a key has no single owner, so no owner
// check can guard its TTL; a renewal of it is no renewal of a lock.
func (m *Model) Counted(key ast.Expr) bool {
	id := m.KeyID(key)
	counted := false
	for _, o := range m.Calls {
		if o.Key() == nil || m.KeyID(o.Key()) != id {
			continue
		}
		if o.Acquires() {
			return false
		}
		counted = counted || o.TakesFirst && o.Command == CmdIncr
	}
	return counted
}

func encloses(fn ast.Node, c *Call) bool {
	return fn != nil && fn.Pos() <= c.Pos() && c.End() <= fn.End()
}

// StateWrite reports whether c, a plain SET of a constant, moves its key
// to another state rather than renewing a holder: every acquire of the
// key in the package stores a constant, and c stores a different one (an
// idempotency claim's "processing" becomes "processed"). A renewal
// writes the holder's own value again. So does a value that is no
// constant, written by the function that took the key with a constant
// before it: the claim's result ("processing" becomes the payment's id).
func (m *Model) StateWrite(c *Call) bool {
	k := c.Key()
	if !c.Overwrites() || k == nil {
		return false
	}
	v, isConst := m.storedConst(c)
	if !isConst && c.Value == nil {
		return false
	}
	id := m.KeyID(k)
	acquires, before := 0, false
	for _, o := range m.Calls {
		if !o.Acquires() || o.Key() == nil || m.KeyID(o.Key()) != id {
			continue
		}
		if ov, ok := m.storedConst(o); !ok || isConst && ov == v {
			return false
		}
		acquires++
		before = before || o.Func == c.Func && o.Pos() < c.Pos()
	}
	return acquires > 0 && (isConst || before)
}

// storedConst is the text of the constant c writes, in the call or, for
// a helper's call, inside the helper.
func (m *Model) storedConst(c *Call) (string, bool) {
	if c.Value != nil {
		return storedText(m.Pass.TypesInfo.Types[c.Value].Value)
	}
	return c.Stored, c.StoredKnown
}

// storedText is the text Redis stores for a constant value: a string as
// it is, an integer in decimal; false for anything else.
func storedText(v constant.Value) (string, bool) {
	switch {
	case v == nil:
		return "", false
	case v.Kind() == constant.String:
		return constant.StringVal(v), true
	case v.Kind() == constant.Int:
		return v.ExactString(), true
	}
	return "", false
}

// ComparesOwnName reports whether every owner check of g, the GET a
// release compares before its delete, compares the key's value with a
// part of the key's own name, while each acquire in the package of a key
// of the same template (lock:*) stores a value that is no part of its
// key. That compare never holds and the delete it guards never runs (an
// OTP kept under "OTP_lock:" + order, "removed" when it equals the
// order's id): a record misread, not a lock released in two round trips.
func (m *Model) ComparesOwnName(g *Call) bool {
	if g == nil || g.Key() == nil {
		return false
	}
	rcs := m.ownerCompares[g]
	if len(rcs) == 0 {
		return false
	}
	for _, rc := range rcs {
		if !m.namePart(g.Key(), rc.other) {
			return false
		}
	}
	tmpl, ok := m.keys.shape(g.Key(), nil, 0).template()
	if !ok {
		return false
	}
	acquired := false
	for _, c := range m.Calls {
		if !c.Acquires() || c.Value == nil || c.Key() == nil {
			continue
		}
		if t, ok := m.keys.shape(c.Key(), nil, 0).template(); !ok || t != tmpl {
			continue
		}
		if tv, ok := m.Pass.TypesInfo.Types[c.Value]; m.namePart(c.Key(), c.Value) || ok && tv.Value != nil {
			// Stores its own name, or a constant: the compare may hold.
			return false
		}
		acquired = true
	}
	return acquired
}

// namePart reports whether v, a variable, is one of the parts key is
// built from.
func (m *Model) namePart(key, v ast.Expr) bool {
	id, ok := ast.Unparen(v).(*ast.Ident)
	if !ok {
		return false
	}
	obj := m.Pass.TypesInfo.ObjectOf(id)
	if obj == nil {
		return false
	}
	return m.keyParts(key, 0, func(e ast.Expr, _ int) partVerdict {
		if x, ok := e.(*ast.Ident); ok && m.Pass.TypesInfo.ObjectOf(x) == obj {
			return partDecides
		}
		return partWalk
	})
}
