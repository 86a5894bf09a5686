package lockmodel

// Is the key a lock: the evidence, from the key's name to how the
// package's functions take, drop and pass it.

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/locklint/locklint/internal/typesx"
)

// Evidence says what makes a key a lock key. Real code often names the
// lock only in the function that takes it (TryLock(ctx, key)) or in the
// caller that passes the key ("lock:order:"+id), so the key expression
// itself is one signal among several.
type Evidence uint8

const (
	NotLock Evidence = iota
	// ByName: a lock word in the key's expression, its variables, fields
	// or helpers.
	ByName
	// ByAcquire: the same key is acquired with SETNX / SET NX in the same
	// function or by a method of the same type.
	ByAcquire
	// ByFunc: the key is the only key of a function whose name or
	// receiver type names a lock (TryLock, Unlock, (*RedisLock).Acquire).
	ByFunc
	// ByCaller: the key comes from a parameter, and a caller in this
	// package passes a lock key for it.
	ByCaller
	// ByPair: a function of the package takes the key through one helper
	// and deletes it through another, with the same argument (see pairs).
	ByPair
	// ByCheck: the key is read with GET and the reply compared before c
	// in c's function, a hand-rolled owner check, and the package does
	// not write such keys as values.
	ByCheck
)

// IsLockKey reports whether key, an argument of c, is a lock key, by any
// evidence.
func (m *Model) IsLockKey(c *Call, key ast.Expr) bool {
	ev, _ := m.LockKey(c, key)
	return ev != NotLock
}

// Why is what made a key a lock by usage (ByFunc, ByCaller, ByPair),
// for the note a message puts after the key. One group is set, or none.
type Why struct {
	// Helper is the function whose name says lock that the key is passed
	// to (TryLock(ctx, key, token)).
	Helper *types.Func
	// Func is the function, named for a lock, whose only key this is.
	Func *ast.FuncDecl
	// Arg is a lock key that Call, a call in this package, passes for the
	// parameter the key is built from.
	Arg  ast.Expr
	Call *ast.CallExpr
	// Take and Drop are the helpers that take and delete the key, both
	// called by Caller with the same argument, Take first.
	Take, Drop, Caller *ast.FuncDecl
}

// keyRef is a key that LockKey weighs, with its identity (KeyID) and
// family (counterFamily) rendered once: its checks compare them with
// other calls' keys, and each rendering walks the key's definitions
// again.
type keyRef struct {
	expr  ast.Expr
	id    string
	fam   string
	famOK bool
}

func (m *Model) refOf(key ast.Expr) keyRef {
	fam, ok := m.counterFamily(key)
	return keyRef{expr: key, id: m.KeyID(key), fam: fam, famOK: ok}
}

// LockKey returns the strongest evidence that key, an argument of c, is a
// lock key, and for usage-based evidence what it is.
func (m *Model) LockKey(c *Call, key ast.Expr) (Evidence, Why) {
	if m.keys == nil || key == nil {
		return NotLock, Why{}
	}
	if m.runKey(key) {
		// Only the run that made the name writes it: nobody contends.
		return NotLock, Why{}
	}
	k := m.refOf(key)
	if m.recordStored(c, k.id) {
		// A record store's key: its value is read back as a record.
		return NotLock, Why{}
	}
	if m.dataKeys[k.id] && !m.claimsChecked(c, k.id) {
		// Read as data and never acquired: usage outweighs any name,
		// unless c's own function checks the key's holder before it
		// writes it.
		return NotLock, Why{}
	}
	if k.famOK && (m.windowKeys[k.fam] || m.recordKeys[k.fam] || m.runKeys[k.fam] || m.unconsulted[k.fam]) {
		return NotLock, Why{}
	}
	if !k.famOK && len(m.windowKeys) > 0 {
		// A lockout flag's key handed to the helpers that raise and
		// clear it.
		if fams := m.familiesAt(c, key); len(fams) > 0 && allIn(fams, m.windowKeys) {
			return NotLock, Why{}
		}
	}
	if !k.famOK && m.tokenNamed(key) {
		// A token's own record (GET req.VerificationToken, compare
		// with the code, DEL): a lock's token is its value, not its
		// name.
		return NotLock, Why{}
	}
	if m.collectionKey(k.id) {
		// A set or a sorted set: data, not a lock.
		return NotLock, Why{}
	}
	fam := ""
	if k.famOK {
		fam = k.fam
	}
	if m.lockTokenKey(k.id, fam) {
		// Named by a lock's token: one acquisition's own key.
		return NotLock, Why{}
	}
	if m.requestKey(key) && !m.inFlightLock(k) {
		// One request's marker: only its duplicates contend.
		return NotLock, Why{}
	}
	if m.keys.lockish(key, 0, map[ast.Node]bool{}) {
		return ByName, Why{}
	}
	if m.Probe(c) {
		// Written and deleted back to back, under a name that says
		// nothing: nothing runs under it.
		return NotLock, Why{}
	}
	if m.ownRecord(k) {
		// A taker's own record: usage outweighs how it is taken.
		return NotLock, Why{}
	}
	if m.acquiredAlongside(c, k) || c.Acquires() && m.releasedOwnedAfter(c, k) || m.keptElement(key) {
		return ByAcquire, Why{}
	}
	// The helper the key is passed to says more than the function that
	// calls it.
	if c.ViaLock && c.Key() == key {
		return ByFunc, Why{Helper: c.Via}
	}
	if why, ok := m.lockFunc(c, k.id); ok {
		return ByFunc, why
	}
	if why, ok := m.lockFromCaller(c, key); ok {
		return ByCaller, why
	}
	if why, ok := m.paired.calls[c]; ok {
		return ByPair, why
	}
	if k.famOK {
		if why, ok := m.paired.families[k.fam]; ok {
			return ByPair, why
		}
	}
	if k.famOK && m.siblingTakeDrop(c, key, k.fam) || m.takenAndReleasedOwned(key, k.id) {
		return ByAcquire, Why{}
	}
	// A compared GET before the DEL is an owner check in a package that
	// takes something exclusively, or against a token the caller or a
	// handle holds; with neither, the compare checks a record against a
	// value made here (a captcha against what the user typed).
	if g := m.compareRead(c, k.id); g != nil && !(k.famOK && m.familyWritten(k.fam)) && !m.secretCompared(g) && (m.takesAny() || m.comparedWithHeld(g)) {
		return ByCheck, Why{}
	}
	return NotLock, Why{}
}

// takenAndReleasedOwned reports whether key, a constant, is taken with NX
// somewhere in the package and deleted somewhere only after its value is
// compared with the caller's, in one step: a DEL queued in the MULTI/EXEC
// of a WATCH on the key after a compared GET under it, a compare-and-delete
// script, or DELEX IFEQ. That is a lock, whatever its name
// ("/election/active"), in every function that touches it. A constant has
// one identity across functions; a key built from variables may not.
func (m *Model) takenAndReleasedOwned(key ast.Expr, id string) bool {
	if tv, ok := m.Pass.TypesInfo.Types[key]; !ok || tv.Value == nil {
		return false
	}
	if m.ownedTaken != nil {
		return m.ownedTaken[id]
	}
	// Asked while the model is built: the calls are all known, but warm
	// has not indexed them yet.
	return m.ownedTakenIDs()[id]
}

// ownedTakenIDs returns the identities of the keys that some call of the
// package takes with NX (not a seed alone) and some call deletes only
// behind an atomic owner check (releasesOwned).
func (m *Model) ownedTakenIDs() map[string]bool {
	taken, released := map[string]bool{}, map[string]bool{}
	for _, o := range m.Calls {
		for i, k := range o.Keys {
			switch {
			case o.Acquires() && k == o.Key() && !m.seedOnly(o):
				taken[m.KeyID(k)] = true
			case m.releasesOwned(o, i):
				released[m.KeyID(k)] = true
			}
		}
	}
	both := map[string]bool{}
	for id := range taken {
		if released[id] {
			both[id] = true
		}
	}
	return both
}

// releasesOwned reports whether o deletes its key o.Keys[i] only behind an
// atomic owner check: a DEL queued in the MULTI/EXEC of a WATCH on the
// key after a compared GET under it, DELEX IFEQ, or a compare-and-delete
// script.
func (m *Model) releasesOwned(o *Call, i int) bool {
	k := o.Keys[i]
	return o.Command.IsDelete() && m.Watches(o, k) && m.compareRead(o, m.KeyID(k)) != nil ||
		o.Command == CmdDelEx && o.Flags&FlagIFEQ != 0 || m.scriptReleases(o, i+1)
}

// acquiredAlongside reports whether key is acquired with SETNX / SET NX by
// another call in the same function, or by a method of the same type that
// is a lock type; or, for an acquire, whether the same function deletes
// the key after it (take, work, delete: a lock, whatever its name), or
// another method of its lock type does (Take and Drop on a receiver key).
func (m *Model) acquiredAlongside(c *Call, key keyRef) bool {
	id := key.id
	for _, o := range m.Calls {
		if o == c || o.Key() == nil || m.KeyID(o.Key()) != id {
			continue
		}
		// The identities are equal: the same key if nothing o's key reads
		// is assigned between the two calls.
		sameFunc := o.Decl == c.Decl && o.Decl != nil && !m.defs.assignedBetween(o.Key(), o.Pos(), c.Pos())
		switch {
		case o.Acquires() && !m.seedOnly(o):
			if sameFunc && m.clearedFor(c, o) {
				// Cleared right before it is written: the NX takes
				// nothing from anyone (a code record replaced).
				continue
			}
			if sameFunc || (strings.Contains(id, "recv(") && m.lockType(o, c) && !m.clearsRecords(c)) {
				return true
			}
		case c.Acquires() && (o.Command.IsDelete() || o.Command == CmdEval) && sameFunc && (o.Pos() > c.Pos() || o.Deferred):
			// A deferred delete runs after the take wherever it is
			// written (registered before the SETNX's retry loop).
			// A delete that only undoes the take when the work failed
			// keeps the key on success: a claim or a marker, not a lock
			// given back after its work.
			if o.Command.IsDelete() && m.UndoOnFailure(o, o.Key()) {
				continue
			}
			return true
		case c.Acquires() && (o.Command.IsDelete() || o.Command == CmdEval) && strings.Contains(id, "recv(") && m.lockType(c, o) && !m.clearsRecords(o):
			// Take in one method, delete (or run a release script) in
			// another: the delete is this type's release (as above, from
			// its side), so this is the acquire.
			return true
		}
	}
	return false
}

// clearedFor reports whether del, a delete sent (not deferred) in a's
// function, is the statement right before a's on its path, and a's reply
// is never read: DEL then SETNX of the same key is a write, not a take.
// Code that tests the reply believes it takes a lock, and the DEL before
// it deletes whoever holds that lock.
func (m *Model) clearedFor(del, a *Call) bool {
	if !del.Command.IsDelete() || del.Deferred || del.Func != a.Func || del.Pos() > a.Pos() || !m.replyUnread(a) {
		return false
	}
	body := FuncBody(a.Func)
	if body == nil {
		return false
	}
	g := m.Graph(body)
	db, di := typesx.Innermost(g, del.Pos())
	ab, ai := typesx.Innermost(g, a.Pos())
	return db != nil && db == ab && ai == di+1
}

// lockType reports whether the methods of a and b, which share a receiver
// key field, belong to a lock type: the type's name or one of the two
// methods says lock, or nothing reads the key as data. A typed-key data
// wrapper (Put, PutIfAbsent, Get on s.key) takes nothing: its SETNX is a
// write, not an acquire, and its GET returns the value to the caller
// instead of comparing it with a token.
func (m *Model) lockType(a, b *Call) bool {
	for _, d := range []*ast.FuncDecl{a.Decl, b.Decl} {
		if d == nil || d.Recv == nil || len(d.Recv.List) == 0 {
			continue
		}
		if m.Words.MatchText(typesx.RecvBase(d.Recv.List[0].Type)) || m.funcNames[d] {
			return true
		}
	}
	id := m.KeyID(a.Key())
	for _, o := range m.Calls {
		if ((o.Command.ReadsValue() && !o.Compared) || o.Command == CmdIncr) && o.Key() != nil && m.KeyID(o.Key()) == id {
			return false
		}
	}
	return true
}

// lockVerbs name a lock operation without the word "lock"; they count only
// in a package that acquires something, where "Release" is not a buffer
// pool's.
var lockVerbs = map[string]bool{"acquire": true, "obtain": true, "release": true}

// renewVerbs name a lock's renewal, but only as a method of a type named
// for a lock (DistributedLock.Extend): elsewhere they refresh sessions
// and tokens.
var renewVerbs = map[string]bool{"extend": true, "renew": true, "refresh": true}

// lockFunc reports whether c's function says, by its name or its
// receiver's type, that it takes or releases a lock, and the key whose
// identity is id is the only key its Redis commands touch: then the key
// is that lock's, whatever it is called. A function that touches several keys (a cache read guarded
// by a lock) says nothing about which of them is the lock.
func (m *Model) lockFunc(c *Call, id string) (Why, bool) {
	d := c.Decl
	if d == nil {
		return Why{}, false
	}
	if !m.funcNames[d] {
		return Why{}, false
	}
	takes := false
	for _, o := range m.Calls {
		if o.Decl != d {
			continue
		}
		for _, k := range o.Keys {
			if m.KeyID(k) != id {
				return Why{}, false
			}
		}
		takes = takes || o.Acquires()
	}
	// A function that takes the key itself may still call a lock-named
	// method on another value: its own clean-up, not a handle.
	if !takes && m.locksThroughHandle(d, id) {
		return Why{}, false
	}
	return Why{Func: d}, true
}

// locksThroughHandle reports whether d takes or drops its lock through a
// call that is no command the model reads: a method named for locking on
// another value (lock.TryAcquire(), mu.Lock(ctx)). The lock's key is
// inside that handle, so the key d's commands touch is the data the lock
// guards (the cache read and refilled in getWithDistributedLock). An
// in-process mutex looked up by the key itself is no such handle: it is
// the lock's local twin (ReleaseLock unlocks it when there is no client,
// and deletes the key otherwise).
func (m *Model) locksThroughHandle(d *ast.FuncDecl, id string) bool {
	found := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || m.byID[call] != nil {
			return true
		}
		if s := m.Pass.TypesInfo.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
			return true
		}
		if m.mutexOfKey(d, sel.X, id) {
			return true
		}
		for _, w := range splitWords(sel.Sel.Name) {
			if m.Words.Match(w) || m.Words.Match(strings.TrimPrefix(w, "un")) || lockVerbs[w] {
				found = true
			}
		}
		return !found
	})
	return found
}

// stateQuery are the words of a name that asks whether a lock is held
// (IsLocked, checkLocked, clearIfLocked) rather than saying the caller
// holds it.
var stateQuery = map[string]bool{"is": true, "are": true, "has": true, "if": true, "whether": true, "check": true, "get": true, "was": true}

// namesLock reports whether a function's name carries a lock word
// (TryLock, Unlock, LockGetFlag), or a lock verb (Acquire, Release) on a
// type named for a lock or in a package that acquires. The receiver's type
// alone is not enough: a lock type's helper may touch a cache key.
func (m *Model) namesLock(d *ast.FuncDecl) bool {
	verb, renews := false, false
	words := splitWords(d.Name.Name)
	if n := len(words); n > 1 && words[n-1] == "locked" && !slices.ContainsFunc(words[:n-1], func(w string) bool { return stateQuery[w] }) {
		// Go's name for a function its caller calls with the lock held
		// (doCheckinLocked): it works under a lock, it takes none.
		return false
	}
	for _, w := range words {
		if w == "optimistic" {
			// An optimistic lock is a versioned update: no holder.
			return false
		}
		if m.Words.Match(w) || m.Words.Match(strings.TrimPrefix(w, "un")) {
			return true
		}
		verb = verb || lockVerbs[w]
		renews = renews || renewVerbs[w]
	}
	if !verb && !renews {
		return false
	}
	if d.Recv != nil && len(d.Recv.List) > 0 && m.Words.MatchText(typesx.RecvBase(d.Recv.List[0].Type)) {
		return true
	}
	if !verb {
		// Expire is no renewal verb: a client wrapper's Expire serves
		// every key.
		return renews && m.lockDriver(d)
	}
	for _, o := range m.Calls {
		if o.Acquires() {
			return true
		}
	}
	return false
}

// lockDriver reports whether d is a method of a type that takes and
// gives back locks named by its callers: one of its methods acquires
// (SET NX) a key it is given, and another, named for a release, deletes
// one. Such a type's renewal verb renews those locks, whatever the type
// is called (a bus's redisDriver.Refresh beside Acquire and Release).
func (m *Model) lockDriver(d *ast.FuncDecl) bool {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return false
	}
	recv := typesx.RecvBase(d.Recv.List[0].Type)
	takes, drops := false, false
	for _, o := range m.Calls {
		od := o.Decl
		if od == nil || od == d || od.Recv == nil || len(od.Recv.List) == 0 || typesx.RecvBase(od.Recv.List[0].Type) != recv {
			continue
		}
		fn, _ := m.Pass.TypesInfo.Defs[od.Name].(*types.Func)
		if fn == nil || o.Key() == nil {
			continue
		}
		if _, ok := m.paramOf(fn, o.Key()); !ok {
			continue
		}
		switch {
		case o.Acquires():
			takes = true
		case o.Command.IsDelete() || o.Command == CmdEval:
			for _, w := range splitWords(od.Name.Name) {
				drops = drops || w == "release" || m.Words.Match(strings.TrimPrefix(w, "un"))
			}
		}
	}
	return takes && drops
}

// lockFromCaller reports whether key is built from a parameter of c's
// function for which a call in this package passes a lock key: the lock
// word is at the call site (Release(ctx, "lock:"+id)), not in the helper.
func (m *Model) lockFromCaller(c *Call, key ast.Expr) (Why, bool) {
	d := c.Decl
	if d == nil || c.Func != d {
		return Why{}, false
	}
	fn, _ := m.Pass.TypesInfo.Defs[d.Name].(*types.Func)
	if fn == nil || m.Forwards(fn) {
		// A forwarder's calls are commands themselves, reported there.
		return Why{}, false
	}
	idx := m.namedParam(fn, key)
	if idx < 0 {
		return Why{}, false
	}
	for _, site := range m.defs.calls[fn] {
		call := site.call
		if idx >= len(call.Args) {
			continue
		}
		a := call.Args[idx]
		if m.keys.lockish(a, 0, map[ast.Node]bool{}) {
			return Why{Arg: a, Call: call}, true
		}
	}
	return Why{}, false
}

// mutexOfKey reports whether recv is a sync.Mutex or sync.RWMutex that d
// looks up by the key id: a local defined from m[key], or from a
// sync.Map's Load or LoadOrStore of the key, possibly asserted to the
// mutex type.
func (m *Model) mutexOfKey(d *ast.FuncDecl, recv ast.Expr, id string) bool {
	info := m.Pass.TypesInfo
	if !isSyncMutex(info.TypeOf(recv)) {
		return false
	}
	e := ast.Unparen(recv)
	if ta, ok := e.(*ast.TypeAssertExpr); ok {
		e = ast.Unparen(ta.X)
	}
	id0, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v := info.Uses[id0]
	if v == nil {
		return false
	}
	keyed := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || keyed || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			return !keyed
		}
		l, ok := as.Lhs[0].(*ast.Ident)
		if !ok || info.ObjectOf(l) != v {
			return true
		}
		var k ast.Expr
		switch r := ast.Unparen(as.Rhs[0]).(type) {
		case *ast.IndexExpr:
			k = r.Index
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(r.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Load" || sel.Sel.Name == "LoadOrStore") && len(r.Args) > 0 {
				k = r.Args[0]
			}
		}
		keyed = k != nil && m.KeyID(k) == id
		return !keyed
	})
	return keyed
}

// isSyncMutex reports whether t is sync.Mutex or sync.RWMutex, or a
// pointer to one.
func isSyncMutex(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" {
		return false
	}
	return n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex"
}

// takesAny reports whether some command of the package takes a key
// exclusively (SETNX, SET NX, an acquire script, a lock library's
// acquire).
func (m *Model) takesAny() bool { return m.takes }

// anyAcquire is takesAny's answer, computed once the calls are known.
func (m *Model) anyAcquire() bool {
	for _, c := range m.Calls {
		if c.Acquires() {
			return true
		}
	}
	return false
}

// comparedWithHeld reports whether some compare of g's reply has, as its
// other operand, a parameter or a field (through local definitions): a
// token that a caller or a handle holds.
func (m *Model) comparedWithHeld(g *Call) bool {
	info := m.Pass.TypesInfo
	for _, rc := range m.ownerCompares[g] {
		switch x := ast.Unparen(m.resolved(rc.other)).(type) {
		case *ast.SelectorExpr:
			if sel := info.Selections[x]; sel != nil && sel.Kind() == types.FieldVal {
				return true
			}
		case *ast.Ident:
			if v, ok := info.ObjectOf(x).(*types.Var); ok && !v.IsField() && v.Parent() != nil && v.Parent() != v.Pkg().Scope() {
				// A parameter or a local with no single definition.
				return true
			}
		}
	}
	return false
}

// allIn reports whether every one of keys is in set.
func allIn(keys []string, set map[string]bool) bool {
	for _, k := range keys {
		if !set[k] {
			return false
		}
	}
	return true
}

// TakenElsewhere reports whether a command of the package other than c
// takes key exclusively (SET NX, SETNX, an acquire script): a key some
// holder owns, not a record written beside another lock.
func (m *Model) TakenElsewhere(c *Call, key ast.Expr) bool {
	for _, o := range m.Calls {
		if o != c && o.Acquires() && o.Key() != nil && m.SameKey(o, o.Key(), c, key) {
			return true
		}
	}
	return false
}
