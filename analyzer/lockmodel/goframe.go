package lockmodel

import (
	"go/ast"
	"go/types"
)

// goframeMethods are gredis's typed group methods (IGroupString,
// IGroupGeneric, IGroupScript), which g.Redis() and *gredis.Redis promote.
var goframeMethods = map[string]Command{
	"Set":       CmdSet,
	"SetNX":     CmdSetNX,
	"SetEX":     CmdSet,
	"Get":       CmdGet,
	"GetDel":    CmdGetDel,
	"Del":       CmdDel,
	"Unlink":    CmdUnlink,
	"Expire":    CmdExpire,
	"PExpire":   CmdPExpire,
	"ExpireAt":  CmdExpireAt,
	"PExpireAt": CmdPExpireAt,
	"Incr":      CmdIncr,
	"IncrBy":    CmdIncr,
	"Decr":      CmdDecr,
	"DecrBy":    CmdDecr,
	"Eval":      CmdEval,
	"EvalSha":   CmdEval,
}

// goframe handles goframe's gredis: Do(ctx, "SET", key, v, "NX", "EX", n)
// as redigo's Do, and the typed methods by parameter name. gredis's SetNX
// takes no TTL; its Set takes NX and the TTL in a SetOption.
func (b *builder) goframe(call *ast.CallExpr, fn *types.Func) *Call {
	name := fn.Name()
	ps := params(fn)
	if name == "Do" {
		return b.rawCommand(call, ps, name, arg(call, ps, "command"), recvOf(call), variadic(call, ps, "args"))
	}
	cmd, ok := goframeMethods[name]
	if !ok || fn.Type().(*types.Signature).Recv() == nil {
		return nil
	}
	c := &Call{Command: cmd, Method: name, Expr: call, Recv: recvOf(call), Ctx: arg(call, ps, "ctx")}
	switch cmd {
	case CmdDel, CmdUnlink:
		c.Keys = variadic(call, ps, "keys")
	case CmdEval:
		c.Keys = b.evalKeys(arg(call, ps, "keys"))
		c.Args = b.evalKeys(arg(call, ps, "args"))
		c.Script = arg(call, ps, "script")
	default:
		if k := arg(call, ps, "key"); k != nil {
			c.Keys = []ast.Expr{k}
		}
	}
	c.Value = arg(call, ps, "value")
	switch name {
	case "SetNX":
		c.Flags, c.NoTTL = FlagNX, true
	case "SetEX":
		c.TTL = arg(call, ps, "ttlInSeconds")
	case "Set":
		b.goframeSetOption(c, variadic(call, ps, "option"))
	default:
		c.TTL = arg(call, ps, "seconds", "milliseconds", "timestamp")
	}
	return c
}

// goframeSetOption reads Set's options: SetOption{NX: true, TTLOption:
// gredis.TTLOption{EX: &ttl}}. No option is a SET with no expiry.
func (b *builder) goframeSetOption(c *Call, opts []ast.Expr) {
	c.NoTTL = true
	if len(opts) == 0 {
		return
	}
	lit := b.compositeOf(opts[0])
	if lit == nil || len(opts) > 1 {
		c.Flags |= FlagUnknown
		return
	}
	var fields func(lit *ast.CompositeLit)
	fields = func(lit *ast.CompositeLit) {
		optionFields(c, lit, func(name string, kv *ast.KeyValueExpr) {
			on := func() bool {
				tv, ok := b.pass.TypesInfo.Types[kv.Value]
				return !ok || tv.Value == nil || tv.Value.ExactString() == "true"
			}
			switch name {
			case "NX":
				if on() {
					c.Flags |= FlagNX
				}
			case "XX":
				if on() {
					c.Flags |= FlagXX
				}
			case "Get":
				c.Flags |= FlagGet
			case "KeepTTL":
				c.Flags |= FlagKeepTTL
			case "EX", "PX", "EXAT", "PXAT":
				c.TTL, c.NoTTL = kv.Value, false
			case "TTLOption":
				if inner := b.compositeOf(kv.Value); inner != nil {
					fields(inner)
				} else {
					c.Flags |= FlagUnknown
				}
			}
		})
	}
	fields(lit)
}
