package lockmodel

// TTL repairs: the classic SETNX-then-EXPIRE recipe's waiter, which
// gives a key it finds with no TTL the lease its holder would have set.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"strings"

	"github.com/locklint/locklint/internal/typesx"
)

// TTLRepair reports whether c, an EXPIRE or a DEL, runs only when a TTL
// read of its function found the key with no expiry (ttl == -1, or
// ttl == -1 || ttl == -2, the key gone as well). An EXPIRE cannot cut any
// holder's lease, since a holder's key has one; it only bounds a key whose
// holder died between its SETNX and its EXPIRE. A DEL, in a package whose
// every acquire sets a TTL, removes only such a leftover (a sweep of keys
// that lost their expiry), never a holder's lock.
func (m *Model) TTLRepair(c *Call) bool {
	switch {
	case c.Command.IsExpire():
	case c.Command.IsDelete():
		for _, o := range m.Calls {
			if o.Acquires() && o.NoTTL {
				return false
			}
		}
	default:
		return false
	}
	body := FuncBody(c.Func)
	if body == nil {
		return false
	}
	return typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || !(ifs.Body.Pos() <= c.Pos() && c.End() <= ifs.Body.End()) {
			return false, false
		}
		return m.noTTLTest(ifs.Cond), false
	})
}

// noTTLTest reports whether cond is x == -1, x a reply of TTL or PTTL, or
// that or'ed with x == -2 (no key).
func (m *Model) noTTLTest(cond ast.Expr) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if ok && be.Op == token.LOR {
		a, b := m.ttlSentinel(be.X), m.ttlSentinel(be.Y)
		return a == -1 && (b == -1 || b == -2) || b == -1 && a == -2
	}
	return m.ttlSentinel(cond) == -1
}

// ttlSentinel returns n when cond is x == n, x a reply of TTL or PTTL and
// n a negative constant (-1: no expiry, -2: no key), or 0.
func (m *Model) ttlSentinel(cond ast.Expr) int64 {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.EQL {
		return 0
	}
	for i, side := range []ast.Expr{be.X, be.Y} {
		other := []ast.Expr{be.Y, be.X}[i]
		tv, ok := m.Pass.TypesInfo.Types[other]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			continue
		}
		if n, exact := constant.Int64Val(tv.Value); exact && n < 0 && m.ttlReply(side) {
			return n
		}
	}
	return 0
}

// ttlReply reports whether e, through retyping, .Val() and local
// variables, is what a TTL or PTTL command returned.
func (m *Model) ttlReply(e ast.Expr) bool {
	info := m.Pass.TypesInfo
	for range maxDepth {
		switch x := unwrapReply(info, e).(type) {
		case *ast.Ident:
			obj := info.ObjectOf(x)
			d, ok := m.defs.only(obj)
			if !ok {
				return false
			}
			e = d.val
			if d.tuple != nil && d.index == 0 {
				e = d.tuple
			}
			continue
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok {
				return false
			}
			switch strings.ToUpper(sel.Sel.Name) {
			case "TTL", "PTTL":
				return true
			case "DO":
				// Do("TTL", k), or Do(ctx, "TTL", k).
				for _, a := range x.Args[:min(2, len(x.Args))] {
					if s, ok := constStringOf(info, a); ok {
						return strings.EqualFold(s, "TTL") || strings.EqualFold(s, "PTTL")
					}
				}
				return false
			case "VAL", "RESULT", "INT64", "INT":
				e = sel.X
				continue
			}
			// redis.Int64(conn.Do("TTL", k)): a reply helper's argument.
			if len(x.Args) > 0 {
				e = x.Args[0]
				continue
			}
		}
		return false
	}
	return false
}
