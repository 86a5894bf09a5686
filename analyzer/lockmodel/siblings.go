package lockmodel

// Sibling methods: one method of a type takes a family of keys with SET NX
// and another deletes them, Start and Finish of a lock whatever the key
// is called.

import (
	"go/ast"

	"github.com/locklint/locklint/internal/typesx"
)

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
		fam, ok := m.counterFamily(c.Key())
		if !ok || m.clearsRecords(c) {
			continue
		}
		mf, ok := m.methodFamilyOf(c, fam)
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

// methodFamilyOf returns c's receiver type with fam, the family of its
// key, for an acquire, a delete or a release script in a method.
func (m *Model) methodFamilyOf(c *Call, fam string) (methodFamily, bool) {
	if c.Decl == nil || c.Decl.Recv == nil || !(c.Acquires() || c.Command.IsDelete() || m.releaseScript(c)) {
		return methodFamily{}, false
	}
	return methodFamily{typesx.RecvBase(c.Decl.Recv.List[0].Type), fam}, true
}

// siblingTakeDrop reports whether one method of c's type takes keys of
// family fam with SET NX and another deletes them, the two building them
// alike from their arguments ("chat:busy:" + chat, s.keyFunc(chat)):
// Start and Finish of a lock, whatever the key is called, unless the
// package reads such keys back as data (a cache's Put, Get and Evict).
// key is the key of c asked about: a script that takes its first key
// does not take the others it is given.
func (m *Model) siblingTakeDrop(c *Call, key ast.Expr, fam string) bool {
	mf, ok := m.methodFamilyOf(c, fam)
	if !ok || m.readFams[mf.family] || m.clearsRecords(c) {
		return false
	}
	td := m.methods[mf]
	if td == nil {
		return false
	}
	others, drops := td.drops, true
	if !c.Acquires() || c.Key() != key {
		others, drops = td.takes, false
	}
	for d := range others {
		if d != c.Decl && !(drops && m.undoOnly(d)) {
			return true
		}
	}
	return false
}

// undoOnly reports whether every delete in d is an undo helper's, which
// its callers call only when the work after their take failed
// (undoneByCallers): the take is a claim they keep, not Start of a lock.
func (m *Model) undoOnly(d *ast.FuncDecl) bool {
	undo := false
	for _, o := range m.Calls {
		if o.Decl != d || !o.Command.IsDelete() {
			continue
		}
		if !m.undoneByCallers(o, o.Key()) {
			return false
		}
		undo = true
	}
	return undo
}
