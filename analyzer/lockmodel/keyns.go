package lockmodel

// The package's key namespace: the one function every command of the
// package builds its key with (serialKey(key)), so that a helper taking
// the caller's key forwards it as the key.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// keyNamespace returns the function of this package that every command
// sent with a key built from a parameter builds it with, serialKey in
// Get(key) { ... Get(ctx, serialKey(key)) }, when at least two commands
// do and none takes a parameter as its key unchanged: a namespace of the
// package's keys, not a key derived from another (key+":running"). An
// unexported helper that sends its parameter unchanged does not count
// against it when every call of the helper passes a namespaced key
// (Del(key) { return del(serialKey(key)) }).
func (m *Model) keyNamespace() *types.Func {
	var ns *types.Func
	uses := 0
	var inner []param
	for _, c := range m.Calls {
		if c.Via != nil || c.Decl == nil || len(c.Keys) != 1 {
			continue
		}
		switch k := ast.Unparen(c.Keys[0]).(type) {
		case *ast.Ident:
			if !m.isParam(c.Decl, k) {
				continue
			}
			p, ok := m.defs.params[m.Pass.TypesInfo.Uses[k]]
			if !ok {
				return nil
			}
			inner = append(inner, p)
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(m.Pass.TypesInfo, k).(*types.Func)
			if fn == nil || fn.Pkg() != m.Pass.Pkg || len(k.Args) != 1 {
				continue
			}
			if id, ok := ast.Unparen(k.Args[0]).(*ast.Ident); !ok || !m.isParam(c.Decl, id) {
				continue
			}
			if ns != nil && ns != fn {
				return nil
			}
			ns = fn
			uses++
		}
	}
	if uses < 2 {
		return nil
	}
	for _, p := range inner {
		sites, ok := m.defs.callers(p.fn)
		if !ok {
			return nil
		}
		for _, site := range sites {
			if p.index >= len(site.call.Args) || !m.namespacedArg(ns, site, site.call.Args[p.index]) {
				return nil
			}
		}
	}
	return ns
}

// namespacedArg reports whether arg, passed at site, is a key built by
// ns: a call of it, or a variable whose one assignment is one and comes
// first, key = serialKey("auto_type", name, key) at the top of the
// function when key is its parameter.
func (m *Model) namespacedArg(ns *types.Func, site callSite, arg ast.Expr) bool {
	ofNS := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return false
		}
		fn, _ := typeutil.Callee(m.Pass.TypesInfo, call).(*types.Func)
		return fn == ns
	}
	if ofNS(arg) {
		return true
	}
	id, ok := ast.Unparen(arg).(*ast.Ident)
	if !ok {
		return false
	}
	obj := m.Pass.TypesInfo.Uses[id]
	x, ok := m.defs.only(obj)
	if !ok || x.fn != site.fn || x.pos > site.call.Pos() || !ofNS(x.val) {
		return false
	}
	if _, isParam := m.defs.params[obj]; !isParam {
		return true
	}
	// The parameter holds the caller's key until that assignment: it
	// must be a statement of the function's body, so that it has run by
	// the call.
	for _, st := range site.fn.Body.List {
		if st.Pos() <= x.pos && x.pos < st.End() {
			_, ok := st.(*ast.AssignStmt)
			return ok
		}
	}
	return false
}

// isParam reports whether id is a parameter of d.
func (m *Model) isParam(d *ast.FuncDecl, id *ast.Ident) bool {
	v, _ := m.Pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil || d.Type.Params == nil {
		return false
	}
	for _, f := range d.Type.Params.List {
		for _, n := range f.Names {
			if m.Pass.TypesInfo.Defs[n] == v {
				return true
			}
		}
	}
	return false
}

// namespaced reports whether key is a call of the package's key
// namespace (keyNamespace) on one argument.
func (m *Model) namespaced(key ast.Expr) bool {
	call, ok := ast.Unparen(key).(*ast.CallExpr)
	if !ok || m.keyNS == nil || len(call.Args) != 1 {
		return false
	}
	fn, _ := typeutil.Callee(m.Pass.TypesInfo, call).(*types.Func)
	return fn == m.keyNS
}

// keyPrefixConst returns the package-level string constant that the
// package's commands put first in every key (KeyPrefix + key), when at
// least two functions send a key that is that constant and a parameter
// alone: a namespace of the package's keys, as keyNamespace's function
// is, so that a wrapper Del(key) stands for a DEL of the caller's key.
// A key sent unchanged from a parameter (a DelWithoutPrefix helper)
// leaves it standing; any other key, one built behind another constant
// or none, says the package does not prefix every key, and a helper's
// prefix ("running:" + key) then names a key of its own.
func (m *Model) keyPrefixConst() *types.Const {
	var prefix *types.Const
	fns := map[*ast.FuncDecl]bool{}
	for _, c := range m.Calls {
		if c.Via != nil || c.Decl == nil || len(c.Keys) != 1 {
			continue
		}
		key := ast.Unparen(c.Keys[0])
		if id, ok := key.(*ast.Ident); ok && m.isParam(c.Decl, id) {
			continue
		}
		first := key
		for {
			x, ok := ast.Unparen(first).(*ast.BinaryExpr)
			if !ok || x.Op != token.ADD {
				break
			}
			first = x.X
		}
		id, ok := ast.Unparen(first).(*ast.Ident)
		if !ok || first == key {
			return nil
		}
		k, ok := m.Pass.TypesInfo.Uses[id].(*types.Const)
		if !ok || k.Pkg() != m.Pass.Pkg || k.Parent() != m.Pass.Pkg.Scope() || k.Val().Kind() != constant.String {
			return nil
		}
		if prefix != nil && prefix != k {
			return nil
		}
		prefix = k
		if b := key.(*ast.BinaryExpr); ast.Unparen(b.X) == ast.Expr(id) {
			if y, ok := ast.Unparen(b.Y).(*ast.Ident); ok && m.isParam(c.Decl, y) {
				fns[c.Decl] = true
			}
		}
	}
	if len(fns) < 2 {
		return nil
	}
	return prefix
}

// prefixed returns the parameter-built part of key when key is the
// package's key prefix and one operand (KeyPrefix + key), or nil.
func (m *Model) prefixed(key ast.Expr) ast.Expr {
	b, ok := ast.Unparen(key).(*ast.BinaryExpr)
	if !ok || m.keyPrefix == nil || b.Op != token.ADD {
		return nil
	}
	id, ok := ast.Unparen(b.X).(*ast.Ident)
	if !ok || m.Pass.TypesInfo.Uses[id] != m.keyPrefix {
		return nil
	}
	return b.Y
}
