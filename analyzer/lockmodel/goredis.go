package lockmodel

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// goRedisCmd describes one go-redis method: the command it sends and the
// flags it implies. Arguments are found by parameter name, because v6 and
// v7 have no ctx parameter and every later argument moves by one.
type goRedisCmd struct {
	cmd   Command
	flags Flags
}

// goRedisMethods is keyed by method name; the callee must also be declared
// in one of the go-redis packages (clientPaths), on a client, pipeline or
// interface type. Script methods are handled apart.
var goRedisMethods = map[string]goRedisCmd{
	"SetNX":      {cmd: CmdSetNX, flags: FlagNX},
	"Set":        {cmd: CmdSet},
	"SetEx":      {cmd: CmdSet},
	"SetEX":      {cmd: CmdSet},
	"SetXX":      {cmd: CmdSet, flags: FlagXX},
	"SetArgs":    {cmd: CmdSet},
	"SetIFEQ":    {cmd: CmdSet, flags: FlagIFEQ},
	"SetIFEQGet": {cmd: CmdSet, flags: FlagIFEQ | FlagGet},
	"Get":        {cmd: CmdGet},
	"GetSet":     {cmd: CmdSet, flags: FlagGet},
	"GetDel":     {cmd: CmdGetDel},
	"Del":        {cmd: CmdDel},
	"Unlink":     {cmd: CmdUnlink},
	"DelExArgs":  {cmd: CmdDelEx},
	"Expire":     {cmd: CmdExpire},
	"ExpireNX":   {cmd: CmdExpire},
	"ExpireXX":   {cmd: CmdExpire},
	"ExpireGT":   {cmd: CmdExpire},
	"ExpireLT":   {cmd: CmdExpire},
	"PExpire":    {cmd: CmdPExpire},
	"ExpireAt":   {cmd: CmdExpireAt},
	"PExpireAt":  {cmd: CmdPExpireAt},
	"Incr":       {cmd: CmdIncr},
	"IncrBy":     {cmd: CmdIncr},
	"Decr":       {cmd: CmdDecr},
	"DecrBy":     {cmd: CmdDecr},
	"Eval":       {cmd: CmdEval},
	"EvalSha":    {cmd: CmdEval},
	"EvalRO":     {cmd: CmdEval},
	"EvalShaRO":  {cmd: CmdEval},
	"FCall":      {cmd: CmdEval},
	"FCallRO":    {cmd: CmdEval},
	"Exec":       {cmd: CmdExec},

	// The digest forms compare a hash of the value (Redis 8.4).
	"SetIFDEQ":    {cmd: CmdSet, flags: FlagIFEQ},
	"SetIFDEQGet": {cmd: CmdSet, flags: FlagIFEQ | FlagGet},
}

func (b *builder) goRedis(cur cursor, call *ast.CallExpr, fn *types.Func) *Call {
	return b.goRedisWith(cur, call, fn, fn.Name(), params(fn))
}

// goRedisWith reads a call of fn, a go-redis method or one that mirrors
// it as the go-redis method name, whose parameters ps names as go-redis
// does.
func (b *builder) goRedisWith(cur cursor, call *ast.CallExpr, fn *types.Func, name string, ps map[string]int) *Call {
	recv := recvOf(call)

	// In go-redis v6 a *Tx's plain Pipeline is MULTI/EXEC too; from v7 on
	// it is a plain pipeline on the watched connection, which WATCH does
	// not make atomic.
	txPipe := name == "TxPipeline" || name == "TxPipelined" ||
		(fn.Pkg().Path() == "github.com/go-redis/redis" && recvTypeName(fn) == "Tx")
	switch name {
	case "Pipeline", "TxPipeline":
		// pipe := rdb.TxPipeline(): remember what pipe queues into.
		if as, ok := cur.Parent().Node().(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && as.Rhs[0] == call {
			if obj := b.objOf(as.Lhs[0]); obj != nil {
				b.batches[obj] = &batch{tx: txPipe, watched: b.watchedVia(recv), watchAt: b.watchAtVia(recv)}
			}
		}
		return nil
	case "Pipelined", "TxPipelined":
		if lit := funcLitArg(call, ps, "fn"); lit != nil {
			if obj := firstParam(b, lit); obj != nil {
				b.batches[obj] = &batch{tx: txPipe, watched: b.watchedVia(recv), watchAt: b.watchAtVia(recv)}
			}
		}
		return nil
	case "Watch":
		keys := variadic(call, ps, "keys")
		if lit := funcLitArg(call, ps, "fn"); lit != nil {
			if obj := firstParam(b, lit); obj != nil {
				b.watchTx[obj] = keys
			}
		}
		return &Call{Command: CmdWatch, Method: name, Expr: call, Recv: recv, Ctx: arg(call, ps, "ctx"), Keys: keys}
	}

	if recvTypeName(fn) == "Script" {
		switch name {
		case "Run", "RunRO", "Eval", "EvalRO", "EvalSha", "EvalShaRO":
			c := &Call{Command: CmdEval, Method: name, Expr: call, Recv: arg(call, ps, "c"), Ctx: arg(call, ps, "ctx")}
			c.Keys = b.evalKeys(arg(call, ps, "keys"))
			c.Args = b.flatArgs(variadic(call, ps, "args"))
			c.Script = b.scriptSource(recv)
			return c
		}
		return nil
	}

	if name == "Do" {
		// rdb.Do(ctx, "SET", key, v, "NX", "PX", ms): the command's words
		// as redigo takes them, the name first.
		words := variadic(call, ps, "args")
		if len(words) == 0 {
			return nil
		}
		return b.rawCommand(call, ps, name, words[0], recv, words[1:])
	}
	spec, ok := goRedisMethods[name]
	if !ok {
		k := arg(call, ps, "key")
		if k != nil && setCommand(upper(name)) {
			b.m.collections = append(b.m.collections, k)
		}
		if k != nil {
			b.m.consulted = append(b.m.consulted, k)
		}
		b.m.consulted = append(b.m.consulted, variadic(call, ps, "keys")...)
		return nil
	}
	c := &Call{Command: spec.cmd, Flags: spec.flags, Method: name, Expr: call, Recv: recv, Ctx: arg(call, ps, "ctx")}
	switch spec.cmd {
	case CmdDel, CmdUnlink:
		c.Keys = variadic(call, ps, "keys")
		if k := arg(call, ps, "keys"); c.Keys == nil && call.Ellipsis.IsValid() && k != nil {
			c.Keys = b.spreadKeys(k)
		}
	case CmdEval:
		c.KeysArg, c.ArgsArg = arg(call, ps, "keys"), arg(call, ps, "args")
		c.Keys = b.evalKeys(c.KeysArg)
		c.Args = b.flatArgs(variadic(call, ps, "args"))
		c.Script = arg(call, ps, "script")
		if c.Script == nil {
			// EvalSha names the script by the SHA that ScriptLoad returned.
			c.Script = b.loadedScript(arg(call, ps, "sha1"))
		}
	case CmdExec:
	default:
		if k := arg(call, ps, "key"); k != nil {
			c.Keys = []ast.Expr{k}
		}
	}
	c.Value = arg(call, ps, "value")
	c.Match = arg(call, ps, "matchValue")
	c.TTL = arg(call, ps, "expiration", "tm")
	switch name {
	case "SetNX", "Expire", "PExpire":
		c.Lease = c.TTL != nil
	}
	switch name {
	case "SetNX", "Set":
		b.expiry(c)
		if c.NoTTL && name == "Set" {
			c.TTL = nil
		}
	case "SetArgs":
		b.setArgs(c, arg(call, ps, "a"))
	case "DelExArgs":
		b.delExArgs(c, arg(call, ps, "a"))
	}
	if c.Command == CmdSetNX && !c.NoTTL {
		// go-redis sends SET NX PX for a SetNX with a TTL.
		c.Command = CmdSet
	}
	b.queue(c, recv)
	return c
}

// queue marks c as queued when recv is a pipeline or transaction.
func (b *builder) queue(c *Call, recv ast.Expr) {
	if recv == nil {
		return
	}
	if obj := b.objOf(recv); obj != nil {
		if bt, ok := b.batches[obj]; ok {
			c.Queued, c.Tx, c.Watched, c.WatchAt = true, bt.tx, bt.watched, bt.watchAt
			return
		}
	}
	t := b.pass.TypesInfo.TypeOf(recv)
	switch goRedisTypeName(t) {
	case "Pipeliner", "Pipeline":
		c.Queued = true
		return
	}
	// A service's own pipeline type, made by its own client, is known by
	// what it does: its Exec sends the batch and returns go-redis's
	// replies.
	c.Queued = execsBatch(t)
}

// execsBatch reports whether t has an Exec whose first result is a slice
// of go-redis's Cmder: a pipeline, whatever declares it.
func execsBatch(t types.Type) bool {
	if t == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Exec")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	res := fn.Type().(*types.Signature).Results()
	if res.Len() == 0 {
		return false
	}
	s, ok := res.At(0).Type().(*types.Slice)
	return ok && goRedisTypeName(s.Elem()) == "Cmder"
}

// namedWatchCallbacks registers the *Tx parameter of each Watch callback
// that is a local function value rather than a literal argument
// (txf := func(tx *redis.Tx) error {...}; rdb.Watch(ctx, txf, key)): the
// callback's body comes before the Watch in the walk, so its commands
// must know they run under the WATCH before the Watch call is reached.
func (b *builder) namedWatchCallbacks(files []*ast.File) {
	info := b.pass.TypesInfo
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, _ := typeutil.Callee(info, call).(*types.Func)
			if fn == nil || fn.Pkg() == nil || fn.Name() != "Watch" || clientPaths[fn.Pkg().Path()] != GoRedis {
				return true
			}
			ps := params(fn)
			id, ok := ast.Unparen(arg(call, ps, "fn")).(*ast.Ident)
			if !ok {
				return true
			}
			// A variable defined once, with a literal: the defs index
			// knows.
			if lit, ok := ast.Unparen(b.m.defs.value(info.Uses[id])).(*ast.FuncLit); ok {
				if obj := firstParam(b, lit); obj != nil {
					b.watchTx[obj] = variadic(call, ps, "keys")
				}
			}
			return true
		})
	}
}

// watchedVia returns the watched keys when recv is a Watch callback's *Tx.
func (b *builder) watchedVia(recv ast.Expr) []ast.Expr {
	if obj := b.objOf(recv); obj != nil {
		if keys, ok := b.watchTx[obj]; ok {
			if keys == nil {
				return []ast.Expr{}
			}
			return keys
		}
	}
	return nil
}

// watchAtVia returns where a Watch callback's *Tx, recv, starts watching:
// its declaration, at the head of the callback.
func (b *builder) watchAtVia(recv ast.Expr) token.Pos {
	if obj := b.objOf(recv); obj != nil {
		if _, ok := b.watchTx[obj]; ok {
			return obj.Pos()
		}
	}
	return token.NoPos
}

func funcLitArg(call *ast.CallExpr, ps map[string]int, name string) *ast.FuncLit {
	lit, _ := ast.Unparen(arg(call, ps, name)).(*ast.FuncLit)
	return lit
}

func firstParam(b *builder, lit *ast.FuncLit) types.Object {
	if lit.Type.Params == nil || len(lit.Type.Params.List) == 0 || len(lit.Type.Params.List[0].Names) == 0 {
		return nil
	}
	return b.pass.TypesInfo.ObjectOf(lit.Type.Params.List[0].Names[0])
}

// compositeOf returns the composite literal an options argument is, either
// directly, through a local variable assigned exactly once, or through a
// helper of the package whose body only returns it (nxArgs()).
func (b *builder) compositeOf(e ast.Expr) *ast.CompositeLit {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = ast.Unparen(u.X)
	}
	if lit, ok := e.(*ast.CompositeLit); ok {
		return lit
	}
	if def := b.m.keys.definition(b.objOf(e)); def != nil {
		if lit, ok := ast.Unparen(def).(*ast.CompositeLit); ok {
			return lit
		}
	}
	if call, ok := e.(*ast.CallExpr); ok {
		if fn, ok := typeutil.Callee(b.pass.TypesInfo, call).(*types.Func); ok {
			if _, res := b.m.defs.returned(fn.Origin()); res != nil {
				if u, ok := ast.Unparen(res).(*ast.UnaryExpr); ok {
					res = u.X
				}
				lit, _ := ast.Unparen(res).(*ast.CompositeLit)
				return lit
			}
		}
	}
	return nil
}

// setArgs reads a SetArgs{Mode, TTL, ExpireAt, KeepTTL, Get} literal.
func (b *builder) setArgs(c *Call, a ast.Expr) {
	lit := b.compositeOf(a)
	if lit == nil {
		c.Flags |= FlagUnknown
		return
	}
	c.NoTTL = true
	optionFields(c, lit, func(name string, kv *ast.KeyValueExpr) {
		switch name {
		case "Mode":
			mode, ok := b.constString(kv.Value)
			if !ok {
				c.Flags |= FlagUnknown
			}
			switch m := upper(mode); {
			case m == "":
			case m == "NX":
				c.Flags |= FlagNX
			case m == "XX":
				c.Flags |= FlagXX
			case comparesOwner(m):
				c.Flags |= FlagIFEQ
			default:
				// IFNE, IFDNE, or a mode of a later version: a
				// condition the model does not know.
				c.Flags |= FlagUnknown
			}
		case "MatchValue":
			c.Match = kv.Value
		case "TTL", "ExpireAt":
			if !b.noTTL(kv.Value) {
				c.TTL, c.NoTTL = kv.Value, false
			}
		case "KeepTTL":
			c.Flags |= FlagKeepTTL
		case "Get":
			c.Flags |= FlagGet
		}
	})
}

// optionFields calls each for the fields of an options literal set by
// name; a field set by position is one the model cannot read.
func optionFields(c *Call, lit *ast.CompositeLit, each func(name string, kv *ast.KeyValueExpr)) {
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			c.Flags |= FlagUnknown
			continue
		}
		if id, _ := kv.Key.(*ast.Ident); id != nil {
			each(id.Name, kv)
		}
	}
}

func (b *builder) delExArgs(c *Call, a ast.Expr) {
	lit := b.compositeOf(a)
	if lit == nil {
		c.Flags |= FlagUnknown
		return
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		id, _ := kv.Key.(*ast.Ident)
		if id == nil {
			continue
		}
		switch id.Name {
		case "Mode":
			mode, _ := b.constString(kv.Value)
			if comparesOwner(mode) {
				c.Flags |= FlagIFEQ
			}
		case "MatchValue":
			c.Match = kv.Value
		}
	}
}

// flatArgs is a script's ARGV as go-redis sends it: a []string or
// []interface{} passed as one argument is spread into its elements
// (Eval(script, keys, []string{token, ttl})).
func (b *builder) flatArgs(args []ast.Expr) []ast.Expr {
	if len(args) != 1 {
		return args
	}
	t, ok := b.pass.TypesInfo.TypeOf(args[0]).(*types.Slice)
	if !ok {
		return args
	}
	if e, ok := t.Elem().Underlying().(*types.Basic); ok && e.Kind() == types.String || types.IsInterface(t.Elem()) {
		if els := sliceElems(args[0]); els != nil {
			return els
		}
	}
	return args
}
