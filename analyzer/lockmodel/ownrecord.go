package lockmodel

// A taker's own record: a key made for one taker's identity, which no
// other taker writes, so nobody contends for it.

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// ownRecord reports whether key, made by an unexported helper of the
// package or by fmt.Sprintf from parameters, one of which names the
// caller's own identity (the node, instance or worker id), is a record
// of that taker rather than a lock: a reservation written with SETNX
// under group:<g>,id:<node> and deleted by the same id. Nobody else
// writes such a key, so no one contends for it. A bare "id" is the
// taker's only beside another part (the group); alone it is as likely
// the resource's (lock:order:<id>). Usage must agree: no command of the
// package compares the value of a key of that family (a compared GET, a
// script, DELEX or SET IFEQ) or renews one, since an owner check or a
// renewal says lock. A lock word in the key outweighs this and is
// decided before.
func (m *Model) ownRecord(key keyRef) bool {
	args := m.makerArgs(key.expr)
	if len(args) == 0 {
		return false
	}
	info := m.Pass.TypesInfo
	own, bare, parts := false, false, 0
	for _, a := range args {
		id, ok := ast.Unparen(a).(*ast.Ident)
		if !ok {
			continue
		}
		obj := info.Uses[id]
		if _, param := m.defs.params[obj]; !param {
			continue
		}
		parts++
		if identityName(obj.Name()) {
			own = true
			bare = bare || strings.EqualFold(obj.Name(), "id")
		}
	}
	if !own || bare && parts < 2 {
		return false
	}
	return m.uncheckedFamily(key)
}

// uncheckedFamily reports whether no command of the package compares the
// value of a key of key's family (a compared GET, a script, DELEX or SET
// IFEQ) or renews one: an owner check or a renewal says lock.
func (m *Model) uncheckedFamily(key keyRef) bool {
	return m.uncheckedFamilyOf(key, true)
}

// uncheckedFamilyOf is uncheckedFamily, where a renewal counts against
// only when renewals is set: a dedupe marker's EXPIRE refreshes one
// request's record, which nobody else holds.
func (m *Model) uncheckedFamilyOf(key keyRef, renewals bool) bool {
	if !key.famOK {
		return false
	}
	fam := key.fam
	for _, o := range m.Calls {
		touches := false
		for _, k := range o.Keys {
			if f, ok := m.counterFamily(k); ok && f == fam {
				touches = true
			}
		}
		if !touches {
			continue
		}
		switch o.Command {
		case CmdEval:
			// A script whose text is read compares the key's value only
			// if it reads the key and tests the reply against a value.
			inFam := func(k ast.Expr) bool { f, ok := m.counterFamily(k); return ok && f == fam }
			if checks, known := m.scriptCompares(o, inFam); checks || !known || renewals && m.scriptExtends(o, inFam) {
				return false
			}
		case CmdDelEx:
			return false
		case CmdExpire, CmdPExpire, CmdExpireAt, CmdPExpireAt:
			if renewals {
				return false
			}
		case CmdGet:
			if o.Compared {
				return false
			}
		}
		if o.Flags&FlagIFEQ != 0 {
			return false
		}
	}
	return true
}

// makerArgs returns the arguments of the call that makes key, through
// local variables: an unexported helper of the package, or fmt.Sprintf
// with a constant format.
func (m *Model) makerArgs(key ast.Expr) []ast.Expr {
	info := m.Pass.TypesInfo
	for depth := 0; depth <= maxDepth; depth++ {
		switch e := ast.Unparen(key).(type) {
		case *ast.Ident:
			def := m.keys.definition(info.ObjectOf(e))
			if def == nil {
				return nil
			}
			key = def
			continue
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(info, e).(*types.Func)
			if fn == nil || fn.Pkg() == nil || e.Ellipsis.IsValid() {
				return nil
			}
			if fn.Pkg() == m.Pass.Pkg && !fn.Exported() {
				return e.Args
			}
			if fn.Pkg().Path() == "fmt" && fn.Name() == "Sprintf" && len(e.Args) > 1 {
				if _, ok := constStringOf(info, e.Args[0]); ok {
					return e.Args[1:]
				}
			}
		}
		return nil
	}
	return nil
}

// identityName reports whether a parameter's name says it is the
// caller's own identity: id, nodeID, instance, hostname, workerID.
func identityName(name string) bool {
	n := strings.ToLower(name)
	if n == "id" {
		return true
	}
	n = strings.TrimSuffix(strings.TrimSuffix(n, "id"), "name")
	n = strings.TrimSuffix(n, "_")
	switch n {
	case "node", "self", "me", "host", "instance", "worker", "machine", "member", "replica", "pod", "peer":
		return true
	}
	return false
}
