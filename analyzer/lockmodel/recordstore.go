package lockmodel

// A record store: a type whose method reads a key it is given and decodes
// the value into what it returns (an idempotency store's Load: GET, then
// json.Unmarshal into an entry) keeps records under its keys. Its SETNX
// reserves a record, its SET writes the record's next state and its DEL
// removes it: none is a lock's acquire, renewal or release, whatever the
// methods are called (Reserve, Commit, Release). A lock's value is a
// token that is compared, never decoded into a record the caller reads.
// So is a family of keys that some function reads and decodes
// (matchmaking:params:<mode>:<user>, a player's queued parameters, read
// back as JSON when the player leaves): taken with SETNX it is a claim on
// a record, and a delete of it removes that record.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// markRecordStores sets Record on the commands that the methods of the
// package's record store types send on keys their callers give, and on
// the commands on a family of keys that the package decodes.
func (m *Model) markRecordStores() {
	stores := map[*types.TypeName]bool{}
	fams := map[string]bool{}
	for _, c := range m.Calls {
		if c.Command != CmdGet || c.Compared || c.Key() == nil || c.File == nil || c.Decl == nil || m.Words.MatchText(c.Decl.Name.Name) {
			continue
		}
		tn := m.storeType(c)
		fam, famOK := m.counterFamily(c.Key())
		famOK = famOK && !m.keys.lockish(c.Key(), 0, map[ast.Node]bool{}) && !m.namespacedParam(c)
		if (tn == nil && !famOK) || !m.decodesReply(c) {
			continue
		}
		if tn != nil {
			stores[tn] = true
		}
		if famOK {
			fams[fam] = true
		}
	}
	if len(stores) == 0 && len(fams) == 0 {
		return
	}
	for _, c := range m.Calls {
		if tn := m.storeType(c); tn != nil && stores[tn] {
			c.Record = true
			continue
		}
		for _, k := range c.Keys {
			if fam, ok := m.counterFamily(k); ok && fams[fam] {
				c.Record = true
			}
		}
	}
}

// namespacedParam reports whether c's key is its function's parameter
// under constant parts only (prefix + key, or buildKey(key) of the
// package's key maker): a key-value helper's key, whatever its callers
// name. Its family is every key of theirs, so a GetJSON that decodes it
// makes no family of the package a record.
func (m *Model) namespacedParam(c *Call) bool {
	fn, _ := m.Pass.TypesInfo.Defs[c.Decl.Name].(*types.Func)
	if fn == nil {
		return false
	}
	if call := m.keyCall(c.Key()); call != nil && m.makerFunc(call) != nil {
		params := 0
		for _, a := range call.Args {
			if tv, ok := m.Pass.TypesInfo.Types[a]; ok && tv.Value != nil {
				continue
			}
			if _, ok := m.paramOf(fn, a); !ok {
				return false
			}
			params++
		}
		return params == 1
	}
	var vars []ast.Expr
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		e = ast.Unparen(e)
		if tv, ok := m.Pass.TypesInfo.Types[e]; ok && tv.Value != nil {
			return
		}
		if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD {
			walk(b.X)
			walk(b.Y)
			return
		}
		vars = append(vars, e)
	}
	walk(c.Key())
	if len(vars) != 1 || vars[0] == ast.Unparen(c.Key()) {
		return false
	}
	_, ok := m.paramOf(fn, vars[0])
	return ok
}

// storeType returns the receiver type of c's method when c's key is a
// parameter of that method, whole, and neither the type's name nor
// the method's has a lock word; nil otherwise.
func (m *Model) storeType(c *Call) *types.TypeName {
	d := c.Decl
	if d == nil || d.Recv == nil || len(d.Recv.List) == 0 || c.Key() == nil || c.File == nil {
		return nil
	}
	// A verb (Reserve, Release) says nothing against usage; a lock word
	// (Lock, Unlock, Mutex) does.
	if m.Words.MatchText(typesx.RecvBase(d.Recv.List[0].Type)) || m.Words.MatchText(d.Name.Name) {
		return nil
	}
	fn, _ := m.Pass.TypesInfo.Defs[d.Name].(*types.Func)
	if fn == nil {
		return nil
	}
	// The key as the caller gives it: a key the method builds (jobKey(id),
	// "lock:"+id) is of a family, which the family rule weighs instead,
	// and the type's other families may well be locks.
	if _, ok := m.paramOf(fn, c.Key()); !ok || m.keys.lockish(c.Key(), 0, map[ast.Node]bool{}) {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	return named.Obj()
}

// decodesReply reports whether the variable c's reply is assigned to is
// decoded by a call of c's function (json.Unmarshal(data, &e), a helper
// unmarshalEntry(data)).
func (m *Model) decodesReply(c *Call) bool {
	r, parents := m.Reply(c)
	if len(parents) == 0 {
		return false
	}
	as, ok := parents[0].(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || as.Rhs[0] != r || len(as.Lhs) == 0 {
		return false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return false
	}
	v := m.Pass.TypesInfo.ObjectOf(id)
	if v == nil {
		return false
	}
	found := false
	ast.Inspect(c.Decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		fn, _ := typeutil.Callee(m.Pass.TypesInfo, call).(*types.Func)
		if fn == nil {
			return true
		}
		name := strings.ToLower(fn.Name())
		if !strings.Contains(name, "unmarshal") && !strings.Contains(name, "decode") {
			return true
		}
		for _, a := range call.Args {
			if typesx.Refers(m.Pass.TypesInfo, a, v) {
				found = true
			}
		}
		return !found
	})
	return found
}

// recordStored reports whether a command of a record store touches the
// key whose identity is id.
func (m *Model) recordStored(c *Call, id string) bool {
	if c.Record {
		return true
	}
	for _, o := range m.Calls {
		if o.Record && o.Key() != nil && m.KeyID(o.Key()) == id {
			return true
		}
	}
	return false
}
