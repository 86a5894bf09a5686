package lockmodel

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/lockmodel/internal/lua"
	"github.com/locklint/locklint/internal/typesx"
)

// Miss is how an acquire that lost (another process holds the key) shows
// in what the code receives: what the code must test to know it did not
// take the lock. It differs per client and per method for the same
// command, so it is a fact of the call.
type Miss uint8

const (
	// MissUnknown: the model cannot say (a script that may answer nil
	// or an error; a wrapper's results are its own).
	MissUnknown Miss = iota
	// MissFalse: a false or 0 reply with a nil error. go-redis's SetNX
	// (false, nil), SETNX's integer 0 through any client, and a script
	// whose every way out returns a number.
	MissFalse
	// MissNilReply: a nil reply with a nil error: redigo's SET NX read
	// without a reply helper.
	MissNilReply
	// MissNilError: the error is the client's nil-reply error (go-redis's
	// redis.Nil from SET NX, redigo's ErrNil through redis.String,
	// rueidis's and valkey-go's nil response from SET NX), so a check
	// that returns on any error returns on a miss.
	MissNilError
)

// InReply reports whether a miss leaves the error nil, so that checking
// the error alone lets a lost acquire through.
func (m Miss) InReply() bool { return m == MissFalse || m == MissNilReply }

// Miss returns how a lost acquire c shows, as the code receives its reply
// (Reply): through c's client, method and any reply helper around it.
func (m *Model) Miss(c *Call) Miss {
	if !c.Acquires() {
		return MissUnknown
	}
	if c.Via != nil {
		// A wrapper's bool result is its verdict; anything else is the
		// wrapper's own convention.
		res := c.Via.Type().(*types.Signature).Results()
		for i := range res.Len() {
			if typesx.IsBool(res.At(i).Type()) {
				return MissFalse
			}
		}
		return MissUnknown
	}
	switch c.Command {
	case CmdSetNX:
		// SETNX replies 0; go-redis's and goframe's SetNX give false.
		return MissFalse
	case CmdEval:
		if text, ok := m.ScriptText(c); ok && lua.NumberReplies(text.Text) {
			return MissFalse
		}
	case CmdSet:
		if c.Client == GoRedis && c.Method == "SetNX" {
			// With a TTL, SetNX sends SET NX PX and still gives false.
			return MissFalse
		}
		switch c.Client {
		case GoRedis, Rueidis:
			return MissNilError
		case Redigo:
			if c.Outer != ast.Expr(c.Expr) {
				// redis.String(conn.Do(...)) turns the nil reply into
				// ErrNil.
				return MissNilError
			}
			return MissNilReply
		}
	}
	return MissUnknown
}

// Reply returns the expression through which the code receives c's reply
// (c.Outer, and for rueidis and valkey-go the client's Do that sends the
// built command, with what chains on its result), and the nodes around
// it, innermost first.
func (m *Model) Reply(c *Call) (ast.Expr, []ast.Node) {
	if c.File == nil {
		return c.Outer, nil
	}
	path, _ := astutil.PathEnclosingInterval(c.File, c.Outer.Pos(), c.Outer.End())
	i := 0
	for i < len(path) && path[i] != ast.Node(c.Outer) {
		i++
	}
	if i == len(path) {
		return c.Outer, nil
	}
	cur := c.Outer
	for i+1 < len(path) {
		switch p := path[i+1].(type) {
		case *ast.ParenExpr:
			cur, i = p, i+1
			continue
		case *ast.SelectorExpr:
			// A method on the result: client.Do(ctx, cmd).Error().
			if p.X == cur && i+2 < len(path) {
				if call, ok := path[i+2].(*ast.CallExpr); ok && call.Fun == ast.Expr(p) {
					cur, i = call, i+2
					continue
				}
			}
		case *ast.CallExpr:
			if c.Client == Rueidis && len(p.Args) == 2 && p.Args[1] == cur && m.isRueidisDo(p) {
				cur, i = p, i+1
				continue
			}
		}
		break
	}
	return cur, path[i+1:]
}

// Obtains returns the package's calls of the lock library's acquire
// (fix.Obtain, lock.Obtain), of another lock library's (redsync's Lock,
// bsm/redislock's Obtain), of another package's Obtainer, and the calls
// whose error the package compares with a not-obtained error, in source
// order.
func (m *Model) Obtains() []*ast.CallExpr { return m.obtains }

// IsNotObtained reports whether obj is a lock library's error for an
// acquire that found the lock held: ErrNotObtained of the front, the core
// or bsm/redislock.
func IsNotObtained(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	if !ok || v.Pkg() == nil || v.Name() != "ErrNotObtained" || v.Parent() != v.Pkg().Scope() {
		return false
	}
	return notObtainedPaths[v.Pkg().Path()]
}

// notObtainedPaths are the packages whose ErrNotObtained IsNotObtained
// knows.
var notObtainedPaths = map[string]bool{LibraryPath: true, CorePath: true, "github.com/bsm/redislock": true}

// isObtain reports whether call is the lock library's acquire.
func isObtain(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return lookup(fn) == apiObtain
}

// seedOnly reports whether c, an acquire that sets no TTL, hands the code
// nothing but its error: nobody asks whether it won. That is a write of a
// value if absent (a stock counter seeded from the database), not a take.
func (m *Model) seedOnly(c *Call) bool {
	if !c.Acquires() || !c.NoTTL {
		return false
	}
	r, _ := m.Reply(c)
	return typesx.IsError(m.Pass.TypesInfo.TypeOf(r))
}
