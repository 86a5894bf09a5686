package lockmodel

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/diag"
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

// LockNote returns, for a lock key known by usage rather than by its name,
// a parenthesised note that says what made it one, to follow the key in a
// message; "" otherwise.
func (m *Model) LockNote(c *Call, key ast.Expr) string {
	if ev, why := m.LockKey(c, key); (ev == ByFunc || ev == ByCaller || ev == ByPair) && why != "" {
		return " (" + why + ")"
	}
	return ""
}

// LockKey returns the strongest evidence that key, an argument of c, is a
// lock key, and for usage-based evidence a short description of it.
func (m *Model) LockKey(c *Call, key ast.Expr) (Evidence, string) {
	if m.keys == nil || key == nil {
		return NotLock, ""
	}
	if m.dataKeys[m.KeyID(key)] {
		// Read as data and never acquired: usage outweighs any name.
		return NotLock, ""
	}
	if len(m.windowKeys) > 0 {
		if fam, ok := m.counterFamily(key); ok && m.windowKeys[fam] {
			return NotLock, ""
		}
	}
	if m.keys.lockish(key, 0, map[ast.Node]bool{}) {
		return ByName, ""
	}
	if m.acquiredAlongside(c, key) {
		return ByAcquire, ""
	}
	// The helper the key is passed to says more than the function that
	// calls it.
	if c.ViaLock && c.Key() == key {
		return ByFunc, "key passed to " + diag.Quote(c.Via.Name())
	}
	if why, ok := m.lockFunc(c, key); ok {
		return ByFunc, why
	}
	if why, ok := m.lockFromCaller(c, key); ok {
		return ByCaller, why
	}
	if why, ok := m.paired.calls[c]; ok {
		return ByPair, why
	}
	if len(m.paired.families) > 0 {
		if fam, ok := m.counterFamily(key); ok && m.paired.families[fam] != "" {
			return ByPair, m.paired.families[fam]
		}
	}
	if m.siblingTakeDrop(c, key) {
		return ByAcquire, ""
	}
	if g := m.CompareRead(c, key); g != nil && !m.WrittenAsValue(key) {
		return ByCheck, ""
	}
	return NotLock, ""
}

// acquiredAlongside reports whether key is acquired with SETNX / SET NX by
// another call in the same function, or by a method of the same type that
// is a lock type; or, for an acquire, whether the same function deletes
// the key after it (take, work, delete: a lock, whatever its name), or
// another method of its lock type does (Take and Drop on a receiver key).
func (m *Model) acquiredAlongside(c *Call, key ast.Expr) bool {
	id := m.KeyID(key)
	for _, o := range m.Calls {
		if o == c || o.Key() == nil || m.KeyID(o.Key()) != id {
			continue
		}
		sameFunc := o.Decl == c.Decl && o.Decl != nil && m.SameKey(o, o.Key(), c, key)
		switch {
		case o.Acquires():
			if sameFunc || (strings.Contains(id, "recv(") && m.lockType(o, c)) {
				return true
			}
		case c.Acquires() && (o.Command.IsDelete() || o.Command == CmdEval) && sameFunc && o.Pos() > c.Pos():
			return true
		case c.Acquires() && o.Command.IsDelete() && strings.Contains(id, "recv(") && m.lockType(c, o):
			// Take in one method, delete in another: the delete is this
			// type's release (as above, from its side), so this is the acquire.
			return true
		}
	}
	return false
}

// methodFamily is a receiver type and a key family (counterFamily).
type methodFamily struct {
	recv, family string
}

// takeDrop are the methods that take keys of a family with SET NX and
// those that delete them.
type takeDrop struct {
	takes, drops map[*ast.FuncDecl]bool
}

// methodTakesAndDrops indexes, once per package, the acquires and
// deletes in methods by receiver type and key family.
func (m *Model) methodTakesAndDrops() map[methodFamily]*takeDrop {
	idx := map[methodFamily]*takeDrop{}
	for _, c := range m.Calls {
		mf, ok := m.methodFamilyOf(c, c.Key())
		if !ok {
			continue
		}
		td := idx[mf]
		if td == nil {
			td = &takeDrop{takes: map[*ast.FuncDecl]bool{}, drops: map[*ast.FuncDecl]bool{}}
			idx[mf] = td
		}
		if c.Acquires() {
			td.takes[c.Decl] = true
		} else {
			td.drops[c.Decl] = true
		}
	}
	return idx
}

// methodFamilyOf returns c's receiver type and key's family, for an
// acquire or a delete in a method.
func (m *Model) methodFamilyOf(c *Call, key ast.Expr) (methodFamily, bool) {
	if key == nil || c.Decl == nil || c.Decl.Recv == nil || !(c.Acquires() || c.Command.IsDelete()) {
		return methodFamily{}, false
	}
	fam, ok := m.counterFamily(key)
	if !ok {
		return methodFamily{}, false
	}
	return methodFamily{recvBaseName(c.Decl.Recv.List[0].Type), fam}, true
}

// siblingTakeDrop reports whether one method of c's type takes key with
// SET NX and another deletes it, the two building it alike from their
// arguments ("chat:busy:" + chat, s.keyFunc(chat)): Start and Finish of a
// lock, whatever the key is called, unless the package reads such keys
// back as data (a cache's Put, Get and Evict).
func (m *Model) siblingTakeDrop(c *Call, key ast.Expr) bool {
	mf, ok := m.methodFamilyOf(c, key)
	if !ok || m.readFams[mf.family] {
		return false
	}
	td := m.methods[mf]
	if td == nil {
		return false
	}
	others := td.drops
	if !c.Acquires() {
		others = td.takes
	}
	for d := range others {
		if d != c.Decl {
			return true
		}
	}
	return false
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
		if m.Words.MatchText(recvBaseName(d.Recv.List[0].Type)) || m.funcNames[d] {
			return true
		}
	}
	id := m.KeyID(a.Key())
	for _, o := range m.Calls {
		if ((o.Command == CmdGet && !o.Compared) || o.Command == CmdIncr) && o.Key() != nil && m.KeyID(o.Key()) == id {
			return false
		}
	}
	return true
}

// lockVerbs name a lock operation without the word "lock"; they count only
// in a package that acquires something, where "Release" is not a buffer
// pool's.
var lockVerbs = map[string]bool{"acquire": true, "obtain": true, "release": true}

// lockFunc reports whether c's function says, by its name or its
// receiver's type, that it takes or releases a lock, and key is the only
// key its Redis commands touch: then the key is that lock's, whatever it
// is called. A function that touches several keys (a cache read guarded
// by a lock) says nothing about which of them is the lock.
func (m *Model) lockFunc(c *Call, key ast.Expr) (string, bool) {
	d := c.Decl
	if d == nil {
		return "", false
	}
	if !m.funcNames[d] {
		return "", false
	}
	id := m.KeyID(key)
	for _, o := range m.Calls {
		if o.Decl != d {
			continue
		}
		for _, k := range o.Keys {
			if m.KeyID(k) != id {
				return "", false
			}
		}
	}
	return "key of " + diag.Quote(funcDisplay(d)), true
}

// namesLock reports whether a function's name carries a lock word
// (TryLock, Unlock, LockGetFlag), or a lock verb (Acquire, Release) on a
// type named for a lock or in a package that acquires. The receiver's type
// alone is not enough: a lock type's helper may touch a cache key.
func (m *Model) namesLock(d *ast.FuncDecl) bool {
	verb := false
	for _, w := range splitWords(d.Name.Name) {
		if m.Words.Match(w) || m.Words.Match(strings.TrimPrefix(w, "un")) {
			return true
		}
		verb = verb || lockVerbs[w]
	}
	if !verb {
		return false
	}
	if d.Recv != nil && len(d.Recv.List) > 0 && m.Words.MatchText(recvBaseName(d.Recv.List[0].Type)) {
		return true
	}
	for _, o := range m.Calls {
		if o.Acquires() {
			return true
		}
	}
	return false
}

// recvBaseName returns the type name of a receiver type expression: T in
// T, *T, T[P] and *T[P].
func recvBaseName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// funcDisplay renders a declaration's name as Go documentation does:
// F, or (*T).M, or T.M.
func funcDisplay(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	star := ""
	if s, ok := ast.Unparen(t).(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	return "(" + star + recvBaseName(t) + ")." + d.Name.Name
}

// lockFromCaller reports whether key is built from a parameter of c's
// function for which a call in this package passes a lock key: the lock
// word is at the call site (Release(ctx, "lock:"+id)), not in the helper.
func (m *Model) lockFromCaller(c *Call, key ast.Expr) (string, bool) {
	d := c.Decl
	if d == nil || c.Func != d {
		return "", false
	}
	fn, _ := m.Pass.TypesInfo.Defs[d.Name].(*types.Func)
	if fn == nil || m.Forwards(fn) {
		// A forwarder's calls are commands themselves, reported there.
		return "", false
	}
	idx := m.namedParam(fn, key)
	if idx < 0 {
		return "", false
	}
	for _, site := range m.defs.calls[fn] {
		call := site.call
		if idx >= len(call.Args) {
			continue
		}
		a := call.Args[idx]
		if m.keys.lockish(a, 0, map[ast.Node]bool{}) {
			pos := m.Pass.Fset.Position(call.Pos())
			return fmt.Sprintf("passed %s at %s:%d", diag.Code(m.Pass.Fset, a), filepath.Base(pos.Filename), pos.Line), true
		}
	}
	return "", false
}

// KeyText renders a lock key for a message: its source quoted as code,
// and for a key known by usage the note that says why it is a lock:
// `key` (key of `(*RedisLock).Unlock`).
func (m *Model) KeyText(c *Call, key ast.Expr) string {
	return diag.Code(m.Pass.Fset, key) + m.LockNote(c, key)
}

// readNotAcquired returns the identities of the keys that some GET reads
// as data and nothing acquires. A name says lock; such usage says
// otherwise: "config:next_prize_lock" read back as a setting, or the
// leader's name that followers read to find it, is a value, and its SET
// and DEL are writes of a value.
func (m *Model) readNotAcquired() map[string]bool {
	read := map[string]bool{}
	for _, c := range m.Calls {
		if c.Read && c.Key() != nil {
			read[m.KeyID(c.Key())] = true
		}
	}
	if len(read) == 0 {
		return nil
	}
	for _, c := range m.Calls {
		if (c.Acquires() || c.TakesFirst) && c.Key() != nil {
			delete(read, m.KeyID(c.Key()))
		}
	}
	return read
}

// windowedNotAcquired returns the families of the keys that some INCR
// counts in a window (Call.Window) and nothing acquires: a lockout's
// "login:lock:" + user, counted in one function and cleared with DEL in
// another, is a counter, and its DEL a reset. Families, not identities:
// the count and its reset are usually apart, each with its own user.
func (m *Model) windowedNotAcquired() map[string]bool {
	var counted map[string]bool
	for _, c := range m.Calls {
		if c.Window {
			if fam, ok := m.counterFamily(c.Key()); ok {
				if counted == nil {
					counted = map[string]bool{}
				}
				counted[fam] = true
			}
		}
	}
	if counted == nil {
		return nil
	}
	for _, c := range m.Calls {
		if c.Acquires() || c.TakesFirst {
			if fam, ok := m.counterFamily(c.Key()); ok {
				delete(counted, fam)
			}
		}
	}
	return counted
}

// counterFamily is keyFamily, except that a key made by a function of
// the package (failuresKey(user), directly or through a local) is of
// that function's family, with its constant arguments (key("fail", user)
// and key("lock", job) are two): its keys are one kind, whatever their
// text.
func (m *Model) counterFamily(key ast.Expr) (string, bool) {
	if key == nil || m.keys == nil {
		return "", false
	}
	e := key
	for range maxDepth {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			break
		}
		def := m.keys.definition(m.Pass.TypesInfo.ObjectOf(id))
		if def == nil {
			break
		}
		e = def
	}
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		var maker string
		if fn, _ := typeutil.Callee(m.Pass.TypesInfo, call).(*types.Func); fn != nil && fn.Pkg() == m.Pass.Pkg {
			maker = "func " + fn.FullName()
		} else if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			// A key builder injected into a struct field (s.keyFunc(chat)):
			// the field's keys are one kind, whichever function fills it.
			if v := m.Pass.TypesInfo.Selections[sel]; v != nil && v.Kind() == types.FieldVal && v.Obj().Pkg() == m.Pass.Pkg {
				maker = "field " + m.keys.idOf(v.Obj())
			}
		}
		if maker != "" {
			var sb strings.Builder
			sb.WriteString(maker + "(")
			for i, a := range call.Args {
				if i > 0 {
					sb.WriteString(",")
				}
				if v, ok := constStringOf(m.Pass.TypesInfo, a); ok {
					sb.WriteString(strconv.Quote(v))
				} else {
					sb.WriteString("*")
				}
			}
			sb.WriteString(")")
			return sb.String(), true
		}
	}
	return m.keyFamily(key)
}

// LeaderKey reports whether key is a leader lease ("cron:leader",
// "election:" + shard): a lock a process takes to act for all of them. Its
// holder is the process, so an identity drawn once per process is a token
// unique to its holder, and a standby that waits for the lease without a
// deadline waits by design.
func (m *Model) LeaderKey(key ast.Expr) bool {
	return m.keys != nil && key != nil && m.keys.names(key, leaderWords, 0, map[ast.Node]bool{})
}

// LeaderName reports whether a function's name speaks of leadership
// (tryBecomeLeader, campaign helpers named for the election).
func (m *Model) LeaderName(name string) bool { return leaderWords.MatchText(name) }

// Marker reports whether an acquire takes a key that nothing in the
// package releases, renews or checks: a per-period "already ran" marker
// (SETNX report:lock:<day> with a TTL and no release). Its value is never
// compared, so it guards nothing a token could protect. Only keys whose
// identity is closed in this function (constants and locals, no parameter
// or field), or that only an unexported helper of the package makes (a
// throttle key built from the caller's arguments), count: a key that comes in from outside may be released where it came
// from.
func (m *Model) Marker(c *Call) bool {
	if m.unreleasedEntry(c) {
		return true
	}
	key := c.Key()
	// Through a helper, the release may be another helper the model does
	// not see into.
	// An acquire whose result is returned, or queued, reports to code
	// that may hold and release it.
	if c.Queued || returned(c) {
		return false
	}
	if !c.Acquires() || key == nil || c.Via != nil {
		return false
	}
	// A key built in the function from constants and locals, or one that
	// only an unexported helper of the package makes, is released, if
	// anywhere, by a command of this package on a key that helper makes.
	closed := m.closedKey(c, key)
	fam, ok := m.helperKey(key)
	var sites []callSite
	var index int
	if !closed && !ok {
		// A parameter of an unexported function that only its callers
		// here name, each passing a key that one helper makes.
		if fam, sites, index, ok = m.helperParam(c, key); !ok {
			return false
		}
	}
	id := m.KeyID(key)
	if m.passesKey(c.Decl, c.Expr, id) {
		return false
	}
	for _, s := range sites {
		if m.passesKey(s.fn, s.call, m.KeyID(s.call.Args[index])) {
			return false
		}
	}
	var self types.Object
	if sites != nil {
		self = m.Pass.TypesInfo.Defs[c.Decl.Name]
	}
	for _, o := range m.Calls {
		// A call of the acquiring function is this acquisition again.
		if o == c || o.Key() == nil || sites != nil && o.Via == self {
			continue
		}
		touches := false
		for _, k := range o.Keys {
			f, fok := m.helperKey(k)
			touches = touches || m.KeyID(k) == id || ok && fok && f == fam
		}
		if !touches {
			continue
		}
		if o.ReleasesOrChecks() || o.Acquires() || o.Via != nil {
			return false
		}
	}
	return true
}

// unreleasedEntry reports whether c is the acquire of an exported
// function that nothing in the package calls, on a key its callers pass
// and that only the function's name calls a lock,
// in a package with no command that could release, renew or check such a
// key (its only releases are a lock type's, on its receiver's fields): a
// cool-down that only expires, Lock(conn, name, ttl). Its callers are in
// other packages, and its value guards nothing here.
func (m *Model) unreleasedEntry(c *Call) bool {
	if !c.Acquires() || c.Via != nil || c.Decl == nil || c.Func != c.Decl || c.Key() == nil {
		return false
	}
	fn, _ := m.Pass.TypesInfo.Defs[c.Decl.Name].(*types.Func)
	if fn == nil || !fn.Exported() || len(m.defs.calls[fn]) > 0 {
		return false
	}
	if _, _, ok := m.paramKey(fn, c.Key()); !ok {
		return false
	}
	if ev, _ := m.LockKey(c, c.Key()); ev != ByFunc {
		return false
	}
	for _, o := range m.Calls {
		if o == c || !o.ReleasesOrChecks() {
			continue
		}
		for _, k := range o.Keys {
			if !strings.Contains(m.KeyID(k), "recv(") {
				return false
			}
		}
	}
	return true
}

// helperParam returns, for a key that is a parameter of c's function,
// the helper that makes what every call of the function passes there,
// with those calls and the parameter's index: the function must be named
// nowhere but in those calls (defIndex.calledOnly).
func (m *Model) helperParam(c *Call, key ast.Expr) (*types.Func, []callSite, int, bool) {
	id, ok := ast.Unparen(key).(*ast.Ident)
	if !ok || c.Decl == nil {
		return nil, nil, 0, false
	}
	p, ok := m.defs.params[m.Pass.TypesInfo.Uses[id]]
	if !ok || m.Pass.TypesInfo.Defs[c.Decl.Name] != p.fn {
		return nil, nil, 0, false
	}
	sites, ok := m.defs.calledOnly(p.fn, true)
	if !ok {
		return nil, nil, 0, false
	}
	var fam *types.Func
	for _, s := range sites {
		if s.fn == nil || len(s.call.Args) <= p.index || s.call.Ellipsis.IsValid() {
			return nil, nil, 0, false
		}
		f, ok := m.helperKey(s.call.Args[p.index])
		if !ok || fam != nil && f != fam {
			return nil, nil, 0, false
		}
		fam = f
	}
	return fam, sites, p.index, true
}

// helperKey returns the unexported helper of the package that makes key
// (through local variables and strings.ToLower and its kin): a key no
// other package can make, whatever the arguments.
func (m *Model) helperKey(key ast.Expr) (*types.Func, bool) {
	info := m.Pass.TypesInfo
	for depth := 0; depth <= maxDepth; depth++ {
		switch e := ast.Unparen(key).(type) {
		case *ast.Ident:
			def := m.keys.definition(info.ObjectOf(e))
			if def == nil {
				return nil, false
			}
			key = def
			continue
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(info, e).(*types.Func)
			switch {
			case fn == nil || fn.Pkg() == nil:
			case fn.Pkg().Path() == "strings" && len(e.Args) > 0:
				key = e.Args[0]
				continue
			case fn.Pkg() == m.Pass.Pkg && !fn.Exported():
				return fn, true
			}
		}
		return nil, false
	}
	return nil, false
}

// closedKey reports whether key is built only from constants and local
// variables of c's function, through their single definitions.
func (m *Model) closedKey(c *Call, key ast.Expr) bool {
	closed := true
	info := m.Pass.TypesInfo
	var visit func(e ast.Node, depth int)
	visit = func(e ast.Node, depth int) {
		if depth > maxDepth {
			closed = false
			return
		}
		ast.Inspect(e, func(n ast.Node) bool {
			if !closed {
				return false
			}
			switch n := n.(type) {
			case *ast.SelectorExpr:
				sel := info.Selections[n]
				if sel == nil {
					return false // a qualified name: time.Now
				}
				if sel.Kind() == types.FieldVal {
					closed = false
					return false
				}
				visit(n.X, depth+1) // a method of a closed value
				return false
			case *ast.Ident:
				switch obj := info.Uses[n].(type) {
				case *types.Var:
					if obj.Parent() == nil || obj.Pkg() == nil || obj.Parent() == obj.Pkg().Scope() {
						closed = false // package variable
						return false
					}
					def := m.keys.definition(obj)
					if def == nil {
						closed = false // a parameter, or assigned more than once
						return false
					}
					visit(def, depth+1)
				}
			}
			return true
		})
	}
	visit(key, 0)
	return closed
}

// returned reports whether c sits in a return statement of its function.
func returned(c *Call) bool {
	body := FuncBody(c.Func)
	if body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = found || (n.Pos() <= c.Pos() && c.End() <= n.End())
		}
		return !found
	})
	return found
}

// passesKey reports whether d hands the key with identity id to a call
// other than by that is not a command (fix.Release(ctx, rdb, key, token),
// a helper of its own): that call may release it. A function of the
// package that only derives other keys from it (jobRunningKey(key))
// releases nothing of this one.
func (m *Model) passesKey(d *ast.FuncDecl, by *ast.CallExpr, id string) bool {
	if d == nil || d.Body == nil {
		return false
	}
	found := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok || call == by || m.byID[call] != nil {
			return !found
		}
		for i, a := range call.Args {
			if m.KeyID(a) == id && !m.derivesOnly(call, i) {
				found = true
			}
		}
		return !found
	})
	return found
}

// derivesOnly reports whether call calls a function of the package that
// uses its i-th parameter only as an argument of unexported helpers of
// the package that make a string: the keys it touches are others. A
// string-making helper called with the key derives a key itself.
func (m *Model) derivesOnly(call *ast.CallExpr, i int) bool {
	info := m.Pass.TypesInfo
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() != m.Pass.Pkg || call.Ellipsis.IsValid() {
		return false
	}
	if keyHelper(fn) {
		return true
	}
	sig := fn.Type().(*types.Signature)
	if i >= sig.Params().Len() || sig.Variadic() && i == sig.Params().Len()-1 {
		return false
	}
	p := sig.Params().At(i)
	decl := m.defs.funcs[fn]
	if decl == nil || decl.Body == nil {
		return false
	}
	body := decl.Body
	uses, derived := 0, 0
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if info.Uses[n] == p {
				uses++
			}
		case *ast.CallExpr:
			if f, _ := typeutil.Callee(info, n).(*types.Func); f != nil && f.Pkg() == m.Pass.Pkg && keyHelper(f) {
				for _, a := range n.Args {
					if id, ok := ast.Unparen(a).(*ast.Ident); ok && info.Uses[id] == p {
						derived++
					}
				}
			}
		}
		return true
	})
	return uses > 0 && uses == derived
}

// keyHelper reports an unexported function that returns one string.
func keyHelper(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if fn.Exported() || sig.Results().Len() != 1 {
		return false
	}
	b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// UndoOnFailure reports whether c, a delete of key, only undoes a take
// when the work after it failed: it sits in an "if err != nil" block and
// nothing else in the function deletes the key. That is a process-once
// marker ("on failure let someone retry"), released on purpose, not a
// lock held across work and then released without an owner check.
func (m *Model) UndoOnFailure(c *Call, key ast.Expr) bool {
	if c.Decl == nil || c.Decl.Body == nil || c.Deferred {
		return false
	}
	body := c.Decl.Body
	onError := false
	ast.Inspect(body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || onError {
			return !onError
		}
		if ifs.Body.Pos() <= c.Pos() && c.End() <= ifs.Body.End() && m.errorCheck(ifs.Cond) {
			onError = true
		}
		return !onError
	})
	if !onError {
		return false
	}
	for _, o := range m.Calls {
		if o == c || o.Decl != c.Decl || !(o.Command.IsDelete() || o.Command == CmdDelEx || o.Command == CmdEval) {
			continue
		}
		for _, k := range o.Keys {
			if m.SameKey(o, k, c, key) {
				return false
			}
		}
	}
	return !m.passesKey(c.Decl, c.Expr, m.KeyID(key))
}

// errorCheck reports whether cond is err != nil for an error-typed err.
func (m *Model) errorCheck(cond ast.Expr) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ {
		return false
	}
	for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
		if id, ok := ast.Unparen(pair[1]).(*ast.Ident); ok && id.Name == "nil" {
			if t := m.Pass.TypesInfo.TypeOf(pair[0]); t != nil && types.Identical(t, types.Universe.Lookup("error").Type()) {
				return true
			}
		}
	}
	return false
}
