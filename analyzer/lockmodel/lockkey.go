package lockmodel

// Is the key a lock: the evidence, from the key's name to how the
// package's functions take, drop and pass it.

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"
	"strings"

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
