package lockmodel

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/types/typeutil"
)

// keyIndex answers the two questions every pass asks of a key expression:
// is it a lock key, and is it the same key as another expression. It uses
// the type checker and simple local data flow: single definitions of
// local variables, values stored into struct fields, and helper functions
// whose results are built from their arguments.
type keyIndex struct {
	m *Model

	mu  sync.Mutex
	ids map[types.Object]int
}

func newKeyIndex(m *Model) *keyIndex {
	return &keyIndex{m: m, ids: map[types.Object]int{}}
}

// definition returns the single defining expression of a local variable
// that is never reassigned, or nil.
func (k *keyIndex) definition(obj types.Object) ast.Expr {
	if obj == nil {
		return nil
	}
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	return k.m.defs.value(obj)
}

func (k *keyIndex) idOf(obj types.Object) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	n, ok := k.ids[obj]
	if !ok {
		n = len(k.ids) + 1
		k.ids[obj] = n
	}
	return "#" + strconv.Itoa(n)
}

// KeyID renders a key expression into a canonical identity: two key
// expressions with the same KeyID denote the same Redis key, as far as the
// type checker and local data flow can tell. Unknown shapes get a unique
// identity, so they never match anything else.
func (m *Model) KeyID(e ast.Expr) string {
	if m.keys == nil || e == nil {
		return ""
	}
	var sb strings.Builder
	m.keys.render(&sb, e, 0)
	return sb.String()
}

const maxDepth = 8

func (k *keyIndex) render(sb *strings.Builder, e ast.Expr, depth int) {
	info := k.m.Pass.TypesInfo
	if depth > maxDepth {
		fmt.Fprintf(sb, "?%d", e.Pos())
		return
	}
	if s, ok := constStringOf(info, e); ok {
		sb.WriteString(strconv.Quote(s))
		return
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		k.render(sb, e.X, depth)
	case *ast.Ident:
		obj := info.ObjectOf(e)
		if obj == nil {
			fmt.Fprintf(sb, "?%d", e.Pos())
			return
		}
		if def := k.definition(obj); def != nil {
			k.render(sb, def, depth+1)
			return
		}
		if t := recvType(obj); t != "" {
			// Receivers of different methods of one type are one value
			// for key identity: l.key in Lock and in Unlock.
			sb.WriteString("recv(" + t + ")")
			return
		}
		sb.WriteString(k.idOf(obj))
	case *ast.SelectorExpr:
		if sel := info.Selections[e]; sel != nil {
			k.render(sb, e.X, depth+1)
			sb.WriteString("." + k.idOf(sel.Obj()))
			return
		}
		// Qualified identifier: pkg.Name.
		if obj := info.ObjectOf(e.Sel); obj != nil {
			sb.WriteString(k.idOf(obj))
			return
		}
		fmt.Fprintf(sb, "?%d", e.Pos())
	case *ast.BinaryExpr:
		sb.WriteString("(")
		k.render(sb, e.X, depth+1)
		sb.WriteString(e.Op.String())
		k.render(sb, e.Y, depth+1)
		sb.WriteString(")")
	case *ast.IndexExpr:
		k.render(sb, e.X, depth+1)
		sb.WriteString("[")
		k.render(sb, e.Index, depth+1)
		sb.WriteString("]")
	case *ast.CallExpr:
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			k.render(sb, e.Args[0], depth) // conversion
			return
		}
		k.render(sb, e.Fun, depth+1)
		sb.WriteString("(")
		for i, a := range e.Args {
			if i > 0 {
				sb.WriteString(",")
			}
			k.render(sb, a, depth+1)
		}
		sb.WriteString(")")
	default:
		fmt.Fprintf(sb, "?%d", e.Pos())
	}
}

// keyFamily renders the constant skeleton of a key expression, every
// variable part a "*": fmt.Sprintf("code:%v", phone) in one function and
// fmt.Sprintf("code:%v", req.Phone) in another are keys of one family.
// ok is false for a skeleton without a constant part, which says nothing
// of what kind of key it is.
func (m *Model) keyFamily(e ast.Expr) (string, bool) {
	if m.keys == nil || e == nil {
		return "", false
	}
	var sb strings.Builder
	consts := m.keys.family(&sb, e, 0)
	return sb.String(), consts
}

func (k *keyIndex) family(sb *strings.Builder, e ast.Expr, depth int) bool {
	info := k.m.Pass.TypesInfo
	if s, ok := constStringOf(info, e); ok {
		sb.WriteString(strconv.Quote(s))
		return s != ""
	}
	if depth > maxDepth {
		sb.WriteString("*")
		return false
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return k.family(sb, e.X, depth)
	case *ast.Ident:
		if def := k.definition(info.ObjectOf(e)); def != nil {
			return k.family(sb, def, depth+1)
		}
	case *ast.BinaryExpr:
		sb.WriteString("(")
		x := k.family(sb, e.X, depth+1)
		sb.WriteString(e.Op.String())
		y := k.family(sb, e.Y, depth+1)
		sb.WriteString(")")
		return x || y
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, e).(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" || len(e.Args) == 0 {
			break
		}
		sb.WriteString("fmt." + fn.Name() + "(")
		consts := k.family(sb, e.Args[0], depth+1)
		sb.WriteString(",...)")
		return consts
	}
	sb.WriteString("*")
	return false
}

// SameKey reports whether a (a key of call ca) and b (of call cb) denote
// the same Redis key: equal identities, and no variable in them reassigned
// between the two calls.
func (m *Model) SameKey(ca *Call, a ast.Expr, cb *Call, b ast.Expr) bool {
	if a == nil || b == nil {
		return false
	}
	if m.KeyID(a) != m.KeyID(b) {
		return false
	}
	lo, hi := ca.Pos(), cb.Pos()
	if lo > hi {
		lo, hi = hi, lo
	}
	changed := false
	ast.Inspect(a, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := m.Pass.TypesInfo.ObjectOf(id); obj != nil {
				for _, p := range m.defs.assigns(obj) {
					if p > lo && p < hi {
						changed = true
					}
				}
			}
		}
		return !changed
	})
	return !changed
}

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
			// type RedisLock struct{ key string }: the key of a lock.
			if n := nameOf(sel.Recv()); n != "" && w.MatchText(n) {
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
			if n := nameOf(sel.Recv()); n != "" && w.MatchText(n) {
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
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if match(r) {
					found = true
					break
				}
			}
		}
		return true
	})
	return found
}

// InScope reports whether every variable e mentions is visible at pos, so
// that e can be copied there by a suggested fix.
func (m *Model) InScope(e ast.Expr, pos token.Pos) bool {
	ok := true
	info := m.Pass.TypesInfo
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if info.Selections[n] != nil {
				if !m.InScope(n.X, pos) {
					ok = false
				}
				return false
			}
		case *ast.FuncLit:
			ok = false
		case *ast.Ident:
			obj := info.ObjectOf(n)
			if obj == nil {
				ok = false
				return false
			}
			if obj.Parent() == nil || obj.Parent() == types.Universe || obj.Pkg() == nil || obj.Parent() == obj.Pkg().Scope() {
				return false
			}
			if _, isPkg := obj.(*types.PkgName); isPkg {
				return false
			}
			if obj.Pos() >= pos || !obj.Parent().Contains(pos) {
				ok = false
			}
		}
		return true
	})
	return ok
}

// handleKey reports whether key is built from the fields of one struct
// value and constants only (l.key, "lock:"+l.name): that struct stands
// for one lock, and a token set when it is made is per lock, not per
// process. A key that takes a parameter (l.prefix+name) or is a constant
// of its own is not a handle's.
func (t *Tokens) handleKey(key ast.Expr, decl *ast.FuncDecl) bool {
	if key == nil {
		return false
	}
	fieldSeen, other := false, false
	var walk func(e ast.Expr, depth int)
	walk = func(e ast.Expr, depth int) {
		if depth > maxTokenDepth || other {
			return
		}
		e = ast.Unparen(e)
		if tv, ok := t.info.Types[e]; ok && tv.Value != nil {
			return
		}
		switch e := e.(type) {
		case *ast.SelectorExpr:
			if sel := t.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
				fieldSeen = true
				return
			}
			other = true
		case *ast.Ident:
			v, ok := t.info.ObjectOf(e).(*types.Var)
			if !ok || t.pkgLevel(v) {
				other = true
				return
			}
			if d, ok := t.m.defs.only(v); ok && d.val != nil {
				walk(d.val, depth+1)
				return
			}
			other = true
		case *ast.BinaryExpr:
			walk(e.X, depth+1)
			walk(e.Y, depth+1)
		case *ast.CallExpr:
			for _, a := range e.Args {
				walk(a, depth+1)
			}
			if tv, ok := t.info.Types[e.Fun]; ok && tv.IsType() {
				return
			}
			if x := recvOf(e); x != nil {
				if sel := t.info.Selections[ast.Unparen(e.Fun).(*ast.SelectorExpr)]; sel != nil && sel.Kind() == types.MethodVal {
					// l.key(): a method of the handle builds its key.
					fieldSeen = true
				}
			}
		default:
			other = true
		}
	}
	walk(key, 0)
	return fieldSeen && !other
}
