package lockmodel

// How a command's reply is used: compared with a token (an owner check),
// with the constant 1 (an INCR used as an acquire) or "" (a GETSET
// used as one), read as data, or
// returned to the caller.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/locklint/locklint/internal/typesx"
	"golang.org/x/tools/go/types/typeutil"
)

// constText is the value of e when it is a constant, or a local variable
// whose one definition is, as the text a GET would return.
func (b *builder) constText(e ast.Expr) (string, bool) {
	e = ast.Unparen(e)
	if def := b.m.keys.definition(b.objOf(e)); def != nil {
		e = def
	}
	return constValue(b.pass.TypesInfo, e)
}

// constant reports whether e is a constant, or a local variable whose one
// definition is (want := "version-2"; ... if val != want).
func (b *builder) constant(e ast.Expr) bool {
	e = ast.Unparen(e)
	if tv, ok := b.pass.TypesInfo.Types[e]; ok && (tv.Value != nil || tv.IsNil()) {
		// nil too: a reply compared with nil is tested for presence.
		return true
	}
	if def := b.m.keys.definition(b.objOf(e)); def != nil {
		tv, ok := b.pass.TypesInfo.Types[def]
		return ok && tv.Value != nil
	}
	return false
}

// compared reports whether a GET's reply is compared with == or !=: as an
// operand (rdb.Get(ctx, k).Val() == token), or through a variable it is
// assigned to (v, err := rdb.Get(ctx, k).Result(); if v != token).
func (b *builder) compared(cur cursor, c *Call) bool {
	// A reply compared with a constant ("done", "", "1") reads a state
	// flag or asserts a value in a test; an owner token is never a
	// constant, so that is no owner check.
	ops := b.comparedTo(c, func(other ast.Expr) bool { return !b.constant(other) }, false)
	// It still compares with a constant token, which Uncompared asks
	// (of the reply itself, not of a number parsed from it).
	b.noParse = true
	consts := b.comparedTo(c, b.constant, false)
	b.noParse = false
	for _, rc := range consts {
		if v, ok := b.constText(rc.other); ok {
			b.m.constCompares[c] = append(b.m.constCompares[c], v)
		}
	}
	if len(ops) > 0 {
		b.m.ownerCompares[c] = ops
		b.noParse = true
		if len(b.comparedTo(c, func(other ast.Expr) bool { return !b.constant(other) }, true)) == 0 {
			b.parsedOnly = append(b.parsedOnly, c)
		}
		b.noParse = false
		return true
	}
	return b.comparedInHelper(c)
}

// dropParsedCompares takes back the compares of the GETs compared only
// as a parsed number, in a package none of whose acquires stores a
// number: the value a holder writes is not what such a compare reads
// ("locked" parsed as 0 and compared with a user's id), so it checks no
// holder. A lock that stores its expiry time is read back so.
func (b *builder) dropParsedCompares() {
	if len(b.parsedOnly) == 0 {
		return
	}
	info := b.pass.TypesInfo
	for _, o := range b.m.Calls {
		if !o.Acquires() || o.Value == nil {
			continue
		}
		if t, ok := info.TypeOf(o.Value).Underlying().(*types.Basic); ok && t.Info()&(types.IsInteger|types.IsFloat) != 0 {
			return
		}
	}
	for _, c := range b.parsedOnly {
		c.Compared = false
		c.Read = !b.comparedWith(c, func(ast.Expr) bool { return true }) && !valueDropped(c)
		delete(b.m.ownerCompares, c)
	}
}

// comparedOne reports whether an INCR's reply is compared with the
// constant 1: the caller that made the counter 1 holds the key.
func (b *builder) comparedOne(c *Call) bool {
	return b.comparedWith(c, func(other ast.Expr) bool {
		n, ok := b.constInt(ast.Unparen(other))
		return ok && n == 1
	})
}

// comparedEmpty reports whether c's reply is compared with the empty
// string.
func (b *builder) comparedEmpty(c *Call) bool {
	return b.comparedWith(c, func(other ast.Expr) bool {
		tv, ok := b.m.Pass.TypesInfo.Types[ast.Unparen(other)]
		return ok && tv.Value != nil && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == ""
	})
}

// comparedWith reports whether c's reply, directly or through the
// variable it is assigned to, is an operand of == or != whose other
// operand satisfies ok.
func (b *builder) comparedWith(c *Call, match func(other ast.Expr) bool) bool {
	b.noParse = true
	defer func() { b.noParse = false }()
	return len(b.comparedTo(c, match, true)) > 0
}

// replyCompare is an == or != of a reply with another operand.
type replyCompare struct {
	expr  *ast.BinaryExpr
	other ast.Expr
}

// comparedTo returns the == and != that c's reply, directly or through
// the variable it is assigned to, is an operand of, those whose other
// operand satisfies match; only the first when first is set.
func (b *builder) comparedTo(c *Call, match func(other ast.Expr) bool, first bool) []replyCompare {
	body := c.Func
	if body == nil {
		return nil
	}
	isReply := b.isReply(c)
	var out []replyCompare
	ast.Inspect(body, func(n ast.Node) bool {
		if first && len(out) > 0 {
			return false
		}
		be, ok := n.(*ast.BinaryExpr)
		if !ok || (be.Op != token.EQL && be.Op != token.NEQ) {
			return true
		}
		for i, side := range []ast.Expr{be.X, be.Y} {
			other := []ast.Expr{be.Y, be.X}[i]
			if isReply(side) && match(other) {
				out = append(out, replyCompare{be, other})
				break
			}
		}
		return true
	})
	return out
}

// reply returns the expression through which the code receives c's reply
// (Model.Reply: for rueidis and valkey-go the client's Do and what chains
// on its result, client.Do(ctx, cmd).ToString(), as go-redis's Result
// chains on the command), and the node around it, or nil.
func (b *builder) reply(c *Call) (ast.Expr, ast.Node) {
	r, around := b.m.Reply(c)
	if len(around) == 0 {
		return r, nil
	}
	return r, around[0]
}

// isReply returns whether an expression is c's reply, or a variable c's
// reply is assigned to in its own statement.
func (b *builder) isReply(c *Call) func(e ast.Expr) bool {
	r, _ := b.reply(c)
	r = ast.Unparen(r)
	vars := b.replyVars(c)
	return func(e ast.Expr) bool {
		e = unwrapReply(b.pass.TypesInfo, e)
		if e == r {
			return true
		}
		obj := b.objOf(e)
		if obj != nil && slices.Contains(vars, obj) {
			return true
		}
		// n, _ := strconv.ParseInt(reply, 10, 64): the reply parsed
		// into a number, compared as the number (an expiry time that
		// names its holder).
		if x, ok := b.m.defs.only(obj); !b.noParse && obj != nil && ok && x.tuple != nil && x.index == 0 && parsesNumber(b.pass.TypesInfo, x.tuple) {
			a := unwrapReply(b.pass.TypesInfo, x.tuple.Args[0])
			if a == r || slices.Contains(vars, b.objOf(a)) {
				return true
			}
		}
		// reply := rdb.Get(ctx, k); ... reply.Val(): go-redis's command
		// kept in a variable, its value read later.
		if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 0 && c.Client == GoRedis {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Val" {
				if v := b.objOf(sel.X); v != nil {
					return ast.Unparen(b.m.defs.value(v)) == ast.Expr(c.Expr)
				}
			}
		}
		return false
	}
}

// unwrapReply strips what only retypes a reply: conversions, type
// assertions, string(reply.([]byte)), and a function from text to text
// (a package's Bytes2str(b), strings.TrimSpace(s)).
func unwrapReply(info *types.Info, e ast.Expr) ast.Expr {
	for range maxDepth {
		switch x := ast.Unparen(e).(type) {
		case *ast.TypeAssertExpr:
			e = x.X
			continue
		case *ast.CallExpr:
			if tv, ok := info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
				e = x.Args[0]
				continue
			}
			if textToText(info, x) {
				e = x.Args[0]
				continue
			}
		}
		return ast.Unparen(e)
	}
	return ast.Unparen(e)
}

// parsesNumber reports whether call parses text into a number with
// strconv (ParseInt, ParseUint, ParseFloat, Atoi).
func parsesNumber(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "strconv" || len(call.Args) == 0 {
		return false
	}
	switch fn.Name() {
	case "ParseInt", "ParseUint", "ParseFloat", "Atoi":
		return true
	}
	return false
}

// returned reports whether c sits in a return statement of its function.
func returned(c *Call) bool {
	body := FuncBody(c.Func)
	if body == nil {
		return false
	}
	return typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		ret, ok := n.(*ast.ReturnStmt)
		return ok && ret.Pos() <= c.Pos() && c.End() <= ret.End(), false
	})
}

// replyReturned reports whether the first value c's statement assigns
// (the reply: ok in ok, err := rdb.SetNX(...).Result()) is named in a
// return statement of c's function: the caller learns whether it holds
// the key, and may release it elsewhere.
func (m *Model) replyReturned(c *Call) bool {
	as, ok := c.Stmt.(*ast.AssignStmt)
	if !ok || len(as.Lhs) == 0 || !(as.Pos() <= c.Pos() && c.End() <= as.End()) {
		return false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok || id.Name == "_" || errorOnly(c) {
		return false
	}
	reply := m.Pass.TypesInfo.ObjectOf(id)
	return reply != nil && m.namedInReturn(c.Func, reply, nil)
}

// namedInReturn reports whether a return statement of fn, outside its
// closures, names obj, other than inside skip (the command that takes
// the key, whose reply the function may return: return
// cache.SetNX(ctx, key, "1", ttl) hands back the reply, not the key).
func (m *Model) namedInReturn(fn ast.Node, obj types.Object, skip ast.Node) bool {
	body := FuncBody(fn)
	if body == nil {
		return false
	}
	info := m.Pass.TypesInfo
	return typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok {
			return false, false
		}
		named := false
		ast.Inspect(ret, func(x ast.Node) bool {
			if named || x == nil || skip != nil && x == skip {
				return false
			}
			if id, ok := x.(*ast.Ident); ok && info.Uses[id] == obj {
				named = true
			}
			return !named
		})
		return named, true
	})
}

// errorOnly reports whether c's result is used only through the client's
// error method (err := rdb.SetNX(...).Err()): what it gives says nothing
// of whether the key was taken.
func errorOnly(c *Call) bool {
	call, ok := ast.Unparen(c.Outer).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	name, known := errMethods[c.Client]
	return ok && known && sel.Sel.Name == name && ast.Unparen(sel.X) == ast.Expr(c.Expr)
}

// textToText reports whether call is a function's (not a method's) of
// one text argument, a string or a byte slice, returning one text.
func textToText(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || len(call.Args) != 1 {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Recv() == nil && !sig.Variadic() && sig.Params().Len() == 1 && sig.Results().Len() == 1 &&
		isText(sig.Params().At(0).Type()) && isText(sig.Results().At(0).Type())
}

// isText reports whether t is a string or a byte slice.
func isText(t types.Type) bool {
	if typesx.IsString(t) {
		return true
	}
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}
