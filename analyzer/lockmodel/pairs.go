package lockmodel

import (
	"github.com/locklint/locklint/analyzer/diag"
	"go/ast"
	"go/types"
	"strings"
)

// Pair is an acquire that sets no TTL followed, in the same function, by a
// separate EXPIRE-family command on the same key. setnxexpire reports the
// pair; plainpexpire must not report its EXPIRE a second time.
type Pair struct {
	Acquire *Call
	Expire  *Call
}

// SplitAcquires returns every SETNX (or SET NX without a TTL) whose TTL is
// set by a later, separate command in the same function, and every INCR
// of a lock key used as an acquire (== 1) whose TTL is set that way.
// Counters (INCR then EXPIRE of a rate-limit window) are not lock keys.
func (m *Model) SplitAcquires() []Pair {
	var out []Pair
	for _, a := range m.Calls {
		if a.Key() == nil {
			continue
		}
		if !(a.Acquires() && a.NoTTL) && !(a.TakesFirst && m.IsLockKey(a, a.Key())) {
			continue
		}
		for _, e := range m.Calls {
			if !e.Command.IsExpire() || e.Func != a.Func || e.Pos() < a.End() || e.Key() == nil {
				continue
			}
			if m.SameKey(a, a.Key(), e, e.Key()) {
				out = append(out, Pair{Acquire: a, Expire: e})
				break
			}
		}
	}
	return out
}

// Token returns the value an acquire of key stored, when the acquire is in
// the same function as c or in a method of the same receiver type, so
// that a fix at c can compare against it. The second result is the value
// rewritten for c's scope: a receiver field read in another method is
// renamed to c's receiver.
func (m *Model) Token(c *Call, key ast.Expr) (*Call, string) {
	for _, a := range m.Calls {
		if !a.Acquires() || a.Value == nil || a.Key() == nil || m.KeyID(a.Key()) != m.KeyID(key) {
			continue
		}
		if !isString(m.Pass.TypesInfo.TypeOf(a.Value)) {
			continue
		}
		if a.Decl == c.Decl {
			if a.Pos() < c.Pos() && m.SameKey(a, a.Key(), c, key) && m.InScope(a.Value, c.Pos()) {
				return a, diag.Source(m.Pass.Fset, a.Value)
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
	return toName + strings.TrimPrefix(diag.Source(m.Pass.Fset, v), fromName), true
}

func recvName(d *ast.FuncDecl) string {
	if len(d.Recv.List) == 0 || len(d.Recv.List[0].Names) == 0 || d.Recv.List[0].Names[0].Name == "_" {
		return ""
	}
	return d.Recv.List[0].Names[0].Name
}

func isString(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// IsTestFile reports whether c sits in a _test.go file.
func (m *Model) IsTestFile(c *Call) bool {
	return strings.HasSuffix(m.Pass.Fset.File(c.Pos()).Name(), "_test.go")
}

// ClientKind returns the name of the go-redis v9 client type of c's
// receiver (Client, ClusterClient, Ring, UniversalClient), or "".
func (m *Model) ClientKind(c *Call) string {
	if c.Module != "github.com/redis/go-redis/v9" || c.Recv == nil {
		return ""
	}
	switch n := goRedisTypeName(m.Pass.TypesInfo.TypeOf(c.Recv)); n {
	case "Client", "ClusterClient", "Ring", "UniversalClient":
		return n
	}
	return ""
}
