package lockmodel

// Which key expressions denote the same key: a canonical identity for a
// key, and the skeleton that groups keys into families.

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
		// Constant arguments tell families of one format apart
		// (fmt.Sprintf("%s%d", seatLock, id) and the same with stockLock).
		for _, a := range e.Args[1:] {
			if s, ok := constStringOf(info, a); ok {
				sb.WriteString("," + strconv.Quote(s))
			} else {
				sb.WriteString(",*")
			}
		}
		sb.WriteString(")")
		return consts
	}
	sb.WriteString("*")
	return false
}

// SameKey reports whether a (a key of call ca) and b (of call cb) denote
// the same Redis key: equal identities, and no variable in them reassigned
// between the two calls.
func (m *Model) SameKey(ca *Call, a ast.Expr, cb *Call, b ast.Expr) bool {
	return m.sameKeyBetween(a, ca.Pos(), b, cb.Pos())
}

// sameKeyBetween is SameKey for two expressions at positions pa and pb:
// the same identity, and nothing it is built from assigned in between.
func (m *Model) sameKeyBetween(a ast.Expr, pa token.Pos, b ast.Expr, pb token.Pos) bool {
	if a == nil || b == nil || m.KeyID(a) != m.KeyID(b) {
		return false
	}
	return !m.defs.assignedBetween(a, pa, pb)
}
