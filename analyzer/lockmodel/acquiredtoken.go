package lockmodel

// The token an acquire stored, as a fix at a release can compare with it,
// and whether an expression can be copied to another place.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/locklint/locklint/internal/typesx"
)

// AcquiredToken returns the value an acquire of key stored, when the acquire is in
// the same function as c or in a method of the same receiver type, so
// that a fix at c can compare against it. The second result is the value
// rewritten for c's scope: a receiver field read in another method is
// renamed to c's receiver.
func (m *Model) AcquiredToken(c *Call, key ast.Expr) (*Call, string) {
	id := m.KeyID(key)
	for _, a := range m.Calls {
		if !a.Acquires() || a.Value == nil || a.Key() == nil || m.KeyID(a.Key()) != id {
			continue
		}
		if !typesx.IsString(m.Pass.TypesInfo.TypeOf(a.Value)) {
			continue
		}
		if a.Decl == c.Decl {
			if a.Pos() < c.Pos() && m.SameKey(a, a.Key(), c, key) && m.InScope(a.Value, c.Pos()) {
				return a, typesx.Source(m.Pass.Fset, a.Value)
			}
			continue
		}
		if s, ok := m.rebase(a.Value, a.Decl, c.Decl); ok {
			return a, s
		}
	}
	return nil, ""
}

// rebase renders v, a selector chain on the receiver of method from, as
// the same chain on the receiver of method to.
func (m *Model) rebase(v ast.Expr, from, to *ast.FuncDecl) (string, bool) {
	if from == nil || to == nil || from.Recv == nil || to.Recv == nil {
		return "", false
	}
	root := v
	for {
		sel, ok := root.(*ast.SelectorExpr)
		if !ok {
			break
		}
		if m.Pass.TypesInfo.Selections[sel] == nil {
			return "", false
		}
		root = sel.X
	}
	id, ok := root.(*ast.Ident)
	if !ok || root == v {
		return "", false
	}
	fromName, toName := recvName(from), recvName(to)
	if fromName == "" || toName == "" || id.Name != fromName {
		return "", false
	}
	if recvType(m.Pass.TypesInfo.ObjectOf(id)) != recvType(m.Pass.TypesInfo.ObjectOf(to.Recv.List[0].Names[0])) {
		return "", false
	}
	return toName + strings.TrimPrefix(typesx.Source(m.Pass.Fset, v), fromName), true
}

func recvName(d *ast.FuncDecl) string {
	if len(d.Recv.List) == 0 || len(d.Recv.List[0].Names) == 0 || d.Recv.List[0].Names[0].Name == "_" {
		return ""
	}
	return d.Recv.List[0].Names[0].Name
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

// TakenWith returns the acquire whose lock c's delete of key gives back,
// for what the acquire stored: AcquiredToken's, the take of a method of
// the same type given the same parameter (Lock(key) and Unlock(key)), or
// the take a caller pairs c's helper with (jobStart and jobEnd on the
// same argument).
func (m *Model) TakenWith(c *Call, key ast.Expr) *Call {
	if a, _ := m.AcquiredToken(c, key); a != nil {
		return a
	}
	drop, paired := m.paired.calls[c]
	for _, a := range m.Calls {
		if !a.Acquires() || a.Key() == nil {
			continue
		}
		if m.sameParamKey(a, a.Key(), c, key) {
			return a
		}
		if take, ok := m.paired.calls[a]; ok && paired && c.Command.IsDelete() && take.Take == drop.Take {
			return a
		}
	}
	return nil
}

// ReleaseToken is the token a fix at c, a release or renewal of key,
// would compare (AcquiredToken's, rewritten for c's scope), or "" when
// no owner check could use it: a value every holder stores (a constant,
// the process's identity, a clock reading; Tokens.Classify) passes for
// all of them, and a rewrite of the release alone would be no fix.
func (m *Model) ReleaseToken(c *Call, key ast.Expr) string {
	a, token := m.AcquiredToken(c, key)
	if a == nil || m.Tokens().Classify(a).Origin.Weak() {
		return ""
	}
	return token
}

// SharedValue returns the acquire whose lock c, a release or renewal of
// key, gives back or extends (TakenWith's) and the origin of its value,
// when that value is one every holder stores.
func (m *Model) SharedValue(c *Call, key ast.Expr) (*Call, TokenOrigin, bool) {
	a := m.TakenWith(c, key)
	if a == nil {
		return nil, TokenOrigin{}, false
	}
	src := m.Tokens().Classify(a)
	return a, src, src.Origin.Weak()
}
