package lockmodel

// Does a key's name say lock: a lock word in the key's text, its
// variables, fields or the helpers that make it.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/locklint/locklint/internal/typesx"
)

// lockish reports whether a key expression names a lock word, and is not
// one of a lock's companion keys.
func (k *keyIndex) lockish(e ast.Expr, depth int, seen map[ast.Node]bool) bool {
	return !companionKey(k.m.Pass.TypesInfo, e) && k.names(e, k.m.Words, depth, seen)
}

// companionWords end the key of a structure kept next to a lock rather
// than the lock: "lock:{job}:queue" holds the lock's waiters.
var companionWords = map[string]bool{"queue": true, "queues": true, "waiters": true, "wake": true}

// companionKey reports a key whose text ends in a companion word, as a
// constant or as the constant a concatenation ends with (lockKey +
// ":queue"). "queue:lock" is a lock on a queue: only the last word counts.
func companionKey(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD {
		e = b.Y
	}
	s, ok := constStringOf(info, e)
	if !ok {
		return false
	}
	words := splitWords(s)
	return len(words) > 0 && companionWords[words[len(words)-1]]
}

// names looks for a word of w in a key expression, wherever a reader
// would see one: identifiers (variables, constants, fields, parameters,
// helper functions), constant strings and Sprintf formats, the type a key
// field or method belongs to, the single definition of a local variable,
// values stored into a field, and what a helper function of this package
// returns. It is the one such walk: lock words (lockish) and fence and
// epoch words (fence.go) ask it.
func (k *keyIndex) names(e ast.Expr, w *Words, depth int, seen map[ast.Node]bool) bool {
	if e == nil || depth > maxDepth || seen[e] {
		return false
	}
	seen[e] = true
	info := k.m.Pass.TypesInfo
	if s, ok := constStringOf(info, e); ok && w.MatchText(s) {
		return true
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return k.names(e.X, w, depth, seen)
	case *ast.TypeAssertExpr:
		// lockKey.(string), a key handed on as a context value.
		return k.names(e.X, w, depth, seen)
	case *ast.BasicLit:
		return false
	case *ast.Ident:
		if w.MatchText(e.Name) {
			return true
		}
		obj := info.ObjectOf(e)
		if def := k.definition(obj); def != nil {
			return k.names(def, w, depth+1, seen)
		}
		return false
	case *ast.SelectorExpr:
		if w.MatchText(e.Sel.Name) {
			return true
		}
		sel := info.Selections[e]
		if sel == nil {
			return false
		}
		if sel.Kind() == types.FieldVal {
			// type RedisLock struct{ key string }: the key of a lock. A
			// type that keeps several keys (a semaphore's queue, its
			// init lock, its hash of holders) does not say which.
			if n := nameOf(sel.Recv()); n != "" && w.MatchText(n) && k.soleKeyField(sel.Recv(), sel.Obj()) {
				return true
			}
			for _, v := range k.m.defs.fieldValues(sel.Obj()) {
				if k.names(v, w, depth+1, seen) {
					return true
				}
			}
		}
		// cfg.locks.prefix: the field's owner names a lock.
		return k.names(e.X, w, depth+1, seen)
	case *ast.BinaryExpr:
		return k.names(e.X, w, depth+1, seen) || k.names(e.Y, w, depth+1, seen)
	case *ast.IndexExpr:
		return k.names(e.X, w, depth+1, seen) || k.names(e.Index, w, depth+1, seen)
	case *ast.CallExpr:
		return k.namesCall(e, w, depth, seen)
	}
	return false
}

func (k *keyIndex) namesCall(e *ast.CallExpr, w *Words, depth int, seen map[ast.Node]bool) bool {
	info := k.m.Pass.TypesInfo
	if tv, ok := info.Types[e.Fun]; ok && tv.IsType() {
		return len(e.Args) == 1 && k.names(e.Args[0], w, depth+1, seen)
	}
	for _, a := range e.Args {
		if k.names(a, w, depth+1, seen) {
			return true
		}
	}
	fnObj, name := callee(info, e.Fun)
	if name != "" && w.MatchText(name) {
		return true
	}
	if f, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok {
		if sel := info.Selections[f]; sel != nil {
			if n := nameOf(sel.Recv()); n != "" && w.MatchText(n) && k.soleKeyField(sel.Recv(), sel.Obj()) {
				return true
			}
		}
	}
	// A helper of this package: look at what it returns.
	return k.returns(fnObj, seen, func(r ast.Expr) bool { return k.names(r, w, depth+1, seen) })
}

// callee returns the object and the name of a call's function when the
// call names it (f(x), pkg.F(x), v.M(x)).
func callee(info *types.Info, fun ast.Expr) (types.Object, string) {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return info.ObjectOf(f), f.Name
	case *ast.SelectorExpr:
		return info.ObjectOf(f.Sel), f.Sel.Name
	}
	return nil, ""
}

// returns reports whether fn is a function declared in this package that
// returns, somewhere outside its function literals, a value for which
// match holds. seen stops the walk through helpers that call each other.
func (k *keyIndex) returns(fn types.Object, seen map[ast.Node]bool, match func(ast.Expr) bool) bool {
	decl := k.m.defs.funcs[fn]
	if decl == nil || decl.Body == nil || seen[decl] {
		return false
	}
	seen[decl] = true
	return typesx.OutsideClosures(decl.Body, func(n ast.Node) (bool, bool) {
		ret, ok := n.(*ast.ReturnStmt)
		return ok && slices.ContainsFunc(ret.Results, match), false
	})
}

// soleKeyField reports whether member, a field or a method of recv's
// type, is the only one that a command of the package uses as a key,
// whole (s.key, s.name()): only then does the type's name say what that
// key is.
func (k *keyIndex) soleKeyField(recv types.Type, member types.Object) bool {
	n := namedOf(recv)
	if n == nil {
		return true
	}
	info := k.m.Pass.TypesInfo
	for _, c := range k.m.Calls {
		for _, key := range c.Keys {
			key = ast.Unparen(key)
			if call, ok := key.(*ast.CallExpr); ok && len(call.Args) == 0 {
				key = ast.Unparen(call.Fun)
			}
			sel, ok := key.(*ast.SelectorExpr)
			if !ok {
				continue
			}
			if s := info.Selections[sel]; s != nil && s.Kind() != types.MethodExpr && s.Obj() != member && namedOf(s.Recv()) == n {
				return false
			}
		}
	}
	return true
}
