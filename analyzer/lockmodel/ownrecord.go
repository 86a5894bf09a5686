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
// package from a parameter that names the caller's own identity (the
// node, instance or worker id), is a record of that taker rather than a
// lock: a reservation written with SETNX under the node's own id and
// deleted by the same id. Nobody else writes such a key, so no one
// contends for it. Usage must agree: no command of the package compares
// the value of a key of that helper (a compared GET, a script, DELEX or
// SET IFEQ) or renews one, since an owner check or a renewal says lock.
// A lock word in the key outweighs this and is decided before.
func (m *Model) ownRecord(key ast.Expr) bool {
	call, fam := m.helperCall(key)
	if call == nil || call.Ellipsis.IsValid() {
		return false
	}
	info := m.Pass.TypesInfo
	own := false
	for _, a := range call.Args {
		id, ok := ast.Unparen(a).(*ast.Ident)
		if !ok {
			continue
		}
		obj := info.Uses[id]
		if _, param := m.defs.params[obj]; param && identityName(obj.Name()) {
			own = true
		}
	}
	if !own {
		return false
	}
	for _, o := range m.Calls {
		touches := false
		for _, k := range o.Keys {
			if f, ok := m.helperKey(k); ok && f == fam {
				touches = true
			}
		}
		if !touches {
			continue
		}
		switch o.Command {
		case CmdEval, CmdDelEx, CmdExpire, CmdPExpire, CmdExpireAt, CmdPExpireAt:
			return false
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

// helperCall returns the call of an unexported helper of the package
// that makes key, through local variables, and the helper.
func (m *Model) helperCall(key ast.Expr) (*ast.CallExpr, *types.Func) {
	info := m.Pass.TypesInfo
	for depth := 0; depth <= maxDepth; depth++ {
		switch e := ast.Unparen(key).(type) {
		case *ast.Ident:
			def := m.keys.definition(info.ObjectOf(e))
			if def == nil {
				return nil, nil
			}
			key = def
			continue
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(info, e).(*types.Func)
			if fn != nil && fn.Pkg() == m.Pass.Pkg && !fn.Exported() {
				return e, fn
			}
		}
		return nil, nil
	}
	return nil, nil
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
