package lockmodel

import (
	"go/ast"
	"go/types"
	"strings"
	"time"

	"golang.org/x/tools/go/types/typeutil"
)

// Pair is an acquire that sets no TTL followed, in the same function, by a
// separate EXPIRE-family command on the same key. setnxexpire reports the
// pair; plainpexpire must not report its EXPIRE a second time.
type Pair struct {
	Acquire *Call
	Expire  *Call
}

// SplitAcquires returns every SETNX (or SET NX without a TTL) whose TTL is
// set by a later, separate command in the same function, and every INCR
// of a lock key used as an acquire (== 1) whose TTL is set that way.
// Counters (INCR then EXPIRE of a rate-limit window) are not lock keys.
func (m *Model) SplitAcquires() []Pair {
	var out []Pair
	for _, a := range m.Calls {
		if a.Key() == nil {
			continue
		}
		if !(a.Acquires() && a.NoTTL) && !(a.TakesFirst && m.IsLockKey(a, a.Key())) {
			continue
		}
		for _, e := range m.Calls {
			if m.expiresTake(a, e) {
				out = append(out, Pair{Acquire: a, Expire: e})
				break
			}
		}
	}
	return out
}

// expiresTake reports whether e is an EXPIRE-family command, after a in
// a's function, on a's key: the second half of a take split in two.
func (m *Model) expiresTake(a, e *Call) bool {
	return e.Command.IsExpire() && e.Func == a.Func && e.Pos() >= a.End() && a.Key() != nil && e.Key() != nil && m.SameKey(a, a.Key(), e, e.Key())
}

// minRetention is the shortest TTL that reads as a record's retention
// rather than a lease: a marker kept for a day or more, left for good by
// a crash before its EXPIRE, keeps out what it would have kept out anyway.
const minRetention = 24 * time.Hour

// KeptMarker reports whether p is a marker's take and its retention: the
// acquire takes a key that nothing releases but the undo of a failed run
// (Marker, or every delete of the key being such an undo in the take's
// own function), and the EXPIRE keeps it a day or more.
func (m *Model) KeptMarker(p Pair) bool {
	d, ok := m.Expiry(p.Expire)
	return ok && d >= minRetention && (m.Marker(p.Acquire) || m.undoneOnly(p.Acquire))
}

// EnsuredMarker reports whether p only makes sure a marker exists and
// gives it a fresh TTL: the acquire's reply is never read (only its
// error, or nothing), so the EXPIRE after it runs whatever it said, and
// nothing names or uses the key as a lock. A login's session marker, set
// if absent and re-expired at each login, takes nothing; its lost EXPIRE
// on a crash leaves a marker, not a held lock.
//
// Only a key built here from constant text and the caller's values
// counts ("jwt:" + uid): a key that comes in whole may be a lock its
// caller names, and a queued SETNX is a pipeline's split acquire.
func (m *Model) EnsuredMarker(p Pair) bool {
	a := p.Acquire
	if a.Queued || !m.replyUnread(a) {
		return false
	}
	if _, ok := m.builtKey(a.Key()); !ok {
		return false
	}
	return !m.IsLockKey(a, a.Key())
}

// replyUnread reports whether nothing reads a's reply: its statement is
// the call alone, the reply is assigned to _, or only the command's
// error is asked for (go-redis's .Err()).
func (m *Model) replyUnread(a *Call) bool {
	if sel, ok := ast.Unparen(a.Outer).(*ast.CallExpr); ok {
		if f, ok := ast.Unparen(sel.Fun).(*ast.SelectorExpr); ok && f.Sel.Name == "Err" && a.Outer != ast.Expr(a.Expr) {
			return true
		}
	}
	r, around := m.Reply(a)
	if len(around) == 0 {
		return false
	}
	switch s := around[0].(type) {
	case *ast.ExprStmt:
		return true
	case *ast.AssignStmt:
		if len(s.Rhs) != 1 || s.Rhs[0] != r || len(s.Lhs) < 2 {
			return false
		}
		id, ok := s.Lhs[0].(*ast.Ident)
		return ok && id.Name == "_"
	}
	return false
}

// undoneOnly reports whether every command on a's key that could give it
// back is a delete, in a's function after a, that undoes the take on a
// failure path, and there is at least one.
func (m *Model) undoneOnly(a *Call) bool {
	key := a.Key()
	undone := false
	for _, o := range m.Calls {
		if o == a || o.Key() == nil || !m.SameKey(a, key, o, o.Key()) {
			continue
		}
		switch {
		case o.Acquires() && !o.ReleasesOrChecks(), m.splitTTL(o):
		case o.Command.IsDelete() && o.Decl == a.Decl && o.Pos() > a.End() && m.sentHere(o) && m.UndoOnFailure(o, o.Key()):
			undone = true
		default:
			return false
		}
	}
	return undone
}

// AcquireTTL reports whether e, an EXPIRE-family command, sets the lease
// of an acquire of its key earlier in the same function: e runs only under
// a condition (the acquire's success, as written), each run follows its
// own acquire (no loop around e leaves the acquire out), and nothing but
// Redis commands and the standard library runs between the two. Such an
// EXPIRE is part of the acquisition, done before any work, not a renewal
// of a lease another holder may have taken since.
func (m *Model) AcquireTTL(e *Call) bool {
	// A helper's EXPIRE (a watchdog's) runs when the helper says.
	if !e.Command.IsExpire() || e.Via != nil || e.Key() == nil || e.Func == nil {
		return false
	}
	for _, a := range m.Calls {
		if !a.Acquires() || a.Func != e.Func || a.End() > e.Pos() || a.Key() == nil || !m.SameKey(a, a.Key(), e, e.Key()) {
			continue
		}
		// On the take's miss, after a compared GET that asks whose key
		// it is, the EXPIRE renews a lease this take did not set (the
		// holder found is this one): it does not finish the take.
		if g := m.CompareRead(e, e.Key()); g != nil && g.Pos() > a.End() && m.onTakeMiss(a, e) {
			continue
		}
		if m.setsLease(a, e) {
			return true
		}
	}
	return false
}

// setsLease reports whether e, after acquire a in the same function, sits
// in an if statement's body below a, inside no loop that a is outside of
// and no go statement,
// and with no work (a call of anything but the standard library, a
// client's package or a Redis command) between them.
func (m *Model) setsLease(a, e *Call) bool {
	conditional := false
	loop := false
	ast.Inspect(e.Func, func(n ast.Node) bool {
		if n == nil || n.Pos() > e.Pos() || n.End() < e.End() {
			return false
		}
		switch s := n.(type) {
		case *ast.IfStmt:
			if s.Body.Pos() <= e.Pos() && e.End() <= s.Body.End() && a.End() <= s.Body.Pos() {
				conditional = true
			}
		case *ast.ForStmt, *ast.RangeStmt:
			if a.Pos() < s.Pos() {
				loop = true
			}
		case *ast.GoStmt:
			loop = true
		}
		return true
	})
	if !conditional || loop {
		return false
	}
	info := m.Pass.TypesInfo
	work := false
	ast.Inspect(e.Func, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || work {
			return !work
		}
		if call.Pos() < a.End() || call.Pos() >= e.Pos() || m.byID[call] != nil {
			return true
		}
		if tv, ok := info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
			return true
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		if fn == nil || fn.Pkg() == nil {
			work = fn == nil
			return !work
		}
		path := fn.Pkg().Path()
		if first, _, _ := strings.Cut(path, "/"); !strings.Contains(first, ".") || clientPackage(path) {
			return true
		}
		work = true
		return false
	})
	return !work
}
