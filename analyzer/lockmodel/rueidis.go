package lockmodel

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// isRueidisCmds reports whether path is the command-builder package of
// rueidis or of valkey-go, its fork.
func isRueidisCmds(path string) bool {
	return path == "github.com/redis/rueidis/internal/cmds" || path == "github.com/valkey-io/valkey-go/internal/cmds"
}

// builderCall reports whether call is a method of rueidis's or
// valkey-go's command builder.
func (m *Model) builderCall(call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(m.Pass.TypesInfo, call).(*types.Func)
	return fn != nil && fn.Pkg() != nil && isRueidisCmds(fn.Pkg().Path())
}

// rueidisCommands maps the builder method that starts a command
// (client.B().Setnx()) to the model.
var rueidisCommands = map[string]Command{
	"Setnx":     CmdSetNX,
	"Set":       CmdSet,
	"Get":       CmdGet,
	"Getdel":    CmdGetDel,
	"Del":       CmdDel,
	"Unlink":    CmdUnlink,
	"Delex":     CmdDelEx,
	"Expire":    CmdExpire,
	"Pexpire":   CmdPExpire,
	"Expireat":  CmdExpireAt,
	"Pexpireat": CmdPExpireAt,
	"Incr":      CmdIncr,
	"Incrby":    CmdIncr,
	"Decr":      CmdDecr,
	"Decrby":    CmdDecr,
	"Eval":      CmdEval,
	"Evalsha":   CmdEval,
	"EvalRo":    CmdEval,
	"Fcall":     CmdEval,
	"Multi":     CmdMulti,
	"Exec":      CmdExec,
	"Watch":     CmdWatch,
}

// rueidis records a command at the end of its builder chain
// (client.B().Set().Key(k).Value(v).Nx().Px(ttl).Build()): the chain's
// Build or Cache call, whose receiver chain is walked back to B().
func (b *builder) rueidis(cur cursor, call *ast.CallExpr, fn *types.Func) *Call {
	if !isRueidisCmds(fn.Pkg().Path()) && recvTypeName(fn) == "Lua" {
		return b.rueidisLua(call, fn)
	}
	if !isRueidisCmds(fn.Pkg().Path()) || (fn.Name() != "Build" && fn.Name() != "Cache") {
		return nil
	}
	// Walk the chain from the end back to the first builder method.
	var chain []*ast.CallExpr
	var names []string
	for e := ast.Expr(call); ; {
		ce, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			break
		}
		f, _ := typeutil.Callee(b.pass.TypesInfo, ce).(*types.Func)
		if f == nil || f.Pkg() == nil || !isRueidisCmds(f.Pkg().Path()) {
			break
		}
		chain = append(chain, ce)
		names = append(names, f.Name())
		e = recvOf(ce)
		if e == nil {
			break
		}
	}
	if len(chain) == 0 {
		return nil
	}
	first := names[len(names)-1]
	cmd, ok := rueidisCommands[first]
	if !ok {
		cmd = CmdOther
	}
	c := &Call{Command: cmd, Method: first, Expr: call}
	if bcall := asCall(recvOf(chain[len(chain)-1])); bcall != nil {
		c.Recv = recvOf(bcall) // client.B()
	}
	if cmd == CmdSetNX {
		c.Flags |= FlagNX
	}
	if cmd == CmdSet || cmd == CmdSetNX {
		c.NoTTL = true
	}
	// Walk forward: Key(k), Value(v), Nx(), Px(d), Ifeq(v), Seconds(n)...
	for i := len(chain) - 2; i >= 0; i-- {
		ce, m := chain[i], names[i]
		switch m {
		case "Key":
			if ce.Ellipsis.IsValid() {
				// Key(keys...): the elements when the slice is a literal.
				c.Keys = append(c.Keys, b.evalKeys(ce.Args[len(ce.Args)-1])...)
				continue
			}
			c.Keys = append(c.Keys, ce.Args...)
		case "Script":
			if cmd == CmdEval && len(ce.Args) > 0 {
				c.Script = ce.Args[0]
			}
		case "Value":
			if len(ce.Args) > 0 {
				c.Value = ce.Args[0]
			}
		case "Nx":
			c.Flags |= FlagNX
		case "Xx":
			c.Flags |= FlagXX
		case "Get":
			c.Flags |= FlagGet
		case "Keepttl":
			c.Flags |= FlagKeepTTL
		case "Ifeq", "Ifdeq":
			c.Flags |= FlagIFEQ
			if len(ce.Args) > 0 {
				c.Match = ce.Args[0]
			}
		case "Ex", "Px", "Exat", "Pxat", "ExSeconds", "PxMilliseconds", "ExatTimestamp", "PxatMillisecondsTimestamp",
			"Seconds", "Milliseconds", "Timestamp", "MillisecondsTimestamp", "UnixTimeSeconds", "UnixTimeMilliseconds":
			if len(ce.Args) > 0 {
				c.TTL, c.NoTTL = ce.Args[0], false
			}
		}
	}
	b.rueidisBatch(cur, c)
	return c
}

// rueidisBatch marks commands passed together to DoMulti as queued, and
// those between a Multi() and an Exec() in the same DoMulti as a
// transaction.
func (b *builder) rueidisBatch(cur cursor, c *Call) {
	p := cur.Parent()
	outer, ok := p.Node().(*ast.CallExpr)
	if !ok {
		return
	}
	f, _ := typeutil.Callee(b.pass.TypesInfo, outer).(*types.Func)
	if f == nil || f.Pkg() == nil || clientPaths[f.Pkg().Path()] != Rueidis {
		return
	}
	if f.Name() != "DoMulti" && f.Name() != "DoMultiCache" {
		if c.Ctx == nil && len(outer.Args) > 0 {
			c.Ctx = outer.Args[0]
		}
		return
	}
	c.Queued = true
	if len(outer.Args) > 0 {
		c.Ctx = outer.Args[0]
	}
	inTx := false
	for _, a := range outer.Args {
		if a == c.Expr {
			c.Tx = inTx
			return
		}
		if oc := b.m.byID[asCall(a)]; oc != nil {
			switch oc.Command {
			case CmdMulti:
				inTx = true
			case CmdExec:
				inTx = false
			}
		}
	}
}

func asCall(e ast.Expr) *ast.CallExpr {
	ce, _ := ast.Unparen(e).(*ast.CallExpr)
	return ce
}
