package lockmodel

import (
	"go/ast"
	"go/types"
)

// redigoCommands maps a command name, as passed to Conn.Do, to the model.
var redigoCommands = map[string]Command{
	"SETNX":     CmdSetNX,
	"SET":       CmdSet,
	"SETEX":     CmdSet,
	"PSETEX":    CmdSet,
	"GET":       CmdGet,
	"GETDEL":    CmdGetDel,
	"GETSET":    CmdSet,
	"DEL":       CmdDel,
	"UNLINK":    CmdUnlink,
	"DELEX":     CmdDelEx,
	"EXPIRE":    CmdExpire,
	"PEXPIRE":   CmdPExpire,
	"EXPIREAT":  CmdExpireAt,
	"PEXPIREAT": CmdPExpireAt,
	"INCR":      CmdIncr,
	"INCRBY":    CmdIncr,
	"DECR":      CmdDecr,
	"DECRBY":    CmdDecr,
	"EVAL":      CmdEval,
	"EVALSHA":   CmdEval,
	"EVAL_RO":   CmdEval,
	"FCALL":     CmdEval,
	"MULTI":     CmdMulti,
	"EXEC":      CmdExec,
	"WATCH":     CmdWatch,
}

// redigo handles Conn.Do/Send/DoContext/DoWithTimeout and the package
// functions redis.DoContext/DoWithTimeout. The command and its flags are
// constant strings; anything else leaves the record opaque.
func (b *builder) redigo(cur cursor, call *ast.CallExpr, fn *types.Func) *Call {
	name := fn.Name()
	ps := params(fn)
	var conn ast.Expr
	switch name {
	case "Do", "Send", "DoContext", "DoWithTimeout":
		if fn.Type().(*types.Signature).Recv() != nil {
			if recvTypeName(fn) == "Script" {
				// (*Script).Do(conn, keysAndArgs...): the key count is
				// set where the script was made, by NewScript.
				return b.redigoScript(call, ps, name)
			}
			if !isConnIface(fn) {
				return nil
			}
			conn = recvOf(call)
		} else {
			conn = arg(call, ps, "c")
		}
	default:
		return nil
	}
	c := b.rawCommand(call, ps, name, arg(call, ps, "commandName", "cmd"), conn, variadic(call, ps, "args"))
	if c == nil {
		return nil
	}
	b.redigoBatch(cur, c, conn, name == "Send")
	return c
}

// rawCommand reads a command sent as a name and its arguments, as redigo's
// Do and goframe's Do take it: Do("SET", key, value, "NX", "PX", ms). Names
// are case-insensitive; a name that is not a constant leaves nothing.
func (b *builder) rawCommand(call *ast.CallExpr, ps map[string]int, method string, cmdArg, conn ast.Expr, args []ast.Expr) *Call {
	cmdName, ok := b.constString(cmdArg)
	if !ok {
		return nil
	}
	cmd, ok := redigoCommands[upper(cmdName)]
	if !ok {
		cmd = CmdOther
		if len(args) > 0 && setCommand(upper(cmdName)) {
			b.m.collections = append(b.m.collections, args[0])
		}
		if len(args) > 0 {
			b.m.consulted = append(b.m.consulted, args[0])
		}
	}
	c := &Call{Command: cmd, Method: method, Expr: call, Recv: conn, Ctx: arg(call, ps, "ctx")}
	if call.Ellipsis.IsValid() && args == nil && cmd.IsDelete() && len(call.Args) > 0 {
		// Every argument of a DEL is a key: the order of a slice built
		// with append does not matter.
		args = b.spreadKeys(call.Args[len(call.Args)-1])
	}
	if call.Ellipsis.IsValid() && args == nil {
		c.Flags |= FlagUnknown
	}
	switch cmd {
	case CmdDel, CmdUnlink, CmdWatch:
		c.Keys = args
	case CmdEval:
		// EVAL script numkeys key... arg...
		if len(args) >= 2 {
			if n, ok := b.constInt(args[1]); ok && 2+n <= len(args) {
				c.Keys, c.Args = args[2:2+n], args[2+n:]
			}
		}
		if u := upper(cmdName); len(args) > 0 && (u == "EVAL" || u == "EVAL_RO") {
			c.Script = args[0]
		}
	case CmdMulti, CmdExec, CmdOther:
	default:
		if len(args) > 0 {
			c.Keys = args[:1]
		}
	}
	switch cmd {
	case CmdSetNX:
		c.Flags |= FlagNX
		c.NoTTL = true
		if len(args) > 1 {
			c.Value = args[1]
		}
	case CmdSet:
		if u := upper(cmdName); u == "SETEX" || u == "PSETEX" {
			// SETEX key seconds value
			if len(args) > 2 {
				c.TTL, c.Value = args[1], args[2]
			}
			break
		}
		if len(args) > 1 {
			c.Value = args[1]
		}
		b.redigoSetFlags(c, args)
		if upper(cmdName) == "GETSET" {
			// GETSET key value: a plain SET that returns the old value.
			c.Flags |= FlagGet
		}
	case CmdDelEx:
		if len(args) >= 3 {
			if f, _ := b.constString(args[1]); comparesOwner(f) {
				c.Flags |= FlagIFEQ
				c.Match = args[2]
			}
		}
	case CmdExpire, CmdPExpire, CmdExpireAt, CmdPExpireAt:
		if len(args) > 1 {
			c.TTL = args[1]
		}
	}
	return c
}

// isConnIface reports whether fn is a method of one of redigo's connection
// interfaces (Conn, ConnWithContext, ConnWithTimeout).
func isConnIface(fn *types.Func) bool {
	recv := fn.Type().(*types.Signature).Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// redigoSetFlags reads SET key value [NX|XX] [EX s|PX ms|EXAT|PXAT|KEEPTTL]
// [GET] [IFEQ v | IFDEQ digest].
func (b *builder) redigoSetFlags(c *Call, args []ast.Expr) {
	c.NoTTL = true
	for i := 2; i < len(args); i++ {
		f, ok := b.constString(args[i])
		if !ok {
			c.Flags |= FlagUnknown
			continue
		}
		switch u := upper(f); {
		case u == "NX":
			c.Flags |= FlagNX
		case u == "XX":
			c.Flags |= FlagXX
		case u == "GET":
			c.Flags |= FlagGet
		case u == "KEEPTTL":
			c.Flags |= FlagKeepTTL
		case u == "EX" || u == "PX" || u == "EXAT" || u == "PXAT":
			if i+1 < len(args) {
				c.TTL, c.NoTTL = args[i+1], false
				i++
			}
		case comparesOwner(u):
			c.Flags |= FlagIFEQ
			if i+1 < len(args) {
				c.Match = args[i+1]
				i++
			}
		}
	}
}

// redigoBatch tracks Send("MULTI") ... Do("EXEC") and WATCH on one
// connection within one function: commands sent between them are queued
// in a transaction, and Send alone queues into the connection's pipeline.
func (b *builder) redigoBatch(cur cursor, c *Call, conn ast.Expr, send bool) {
	obj := b.connOf(conn)
	fn := enclosingFunc(cur)
	key := multiKey{fn: fn, conn: obj}
	st := b.multi[key]
	switch c.Command {
	case CmdWatch:
		if obj != nil {
			if st == nil {
				st = &batch{}
				b.multi[key] = st
			}
			if st.watched == nil {
				st.watchAt = c.Pos()
			}
			st.watched = append(st.watched, c.Keys...)
		}
		return
	case CmdMulti:
		if obj != nil {
			if st == nil {
				st = &batch{}
				b.multi[key] = st
			}
			st.tx = true
		}
		return
	case CmdExec:
		delete(b.multi, key)
		return
	}
	if st != nil && st.tx {
		c.Queued, c.Tx = true, true
		if st.watched != nil {
			c.Watched, c.WatchAt = st.watched, st.watchAt
		}
		return
	}
	c.Queued = send
}

// connOf is the connection conn names within a function: a variable, or
// a field of one (r.Conn, a lock's connection), which stays the same
// connection for the function's commands.
func (b *builder) connOf(conn ast.Expr) types.Object {
	if sel, ok := ast.Unparen(conn).(*ast.SelectorExpr); ok {
		if _, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
			if v := b.pass.TypesInfo.Selections[sel]; v != nil && v.Kind() == types.FieldVal {
				return v.Obj()
			}
		}
		return nil
	}
	return b.objOf(conn)
}

func enclosingFunc(cur cursor) ast.Node {
	for f := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return f.Node()
	}
	return nil
}
