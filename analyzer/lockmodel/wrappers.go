package lockmodel

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/locklint/locklint/internal/typesx"
)

// Services rarely call the client directly: they call their own
// interface (type RedisClient interface{ SetNX(...) *redis.BoolCmd }), a
// struct whose methods forward to go-redis or redigo, or package functions
// of their own pkg/redis. The model follows both shapes, so a call through
// the wrapper is a command with the caller's key, value and TTL.

// Forwarder is the analysis fact that a function sends one Redis command
// built from its parameters: a call to it is that command.
type Forwarder struct {
	Command Command
	Flags   Flags
	Client  Client
	Module  string
	// Parameter indices of the context, key, value and TTL; -1 when the
	// function fixes them itself.
	Ctx, Key, Value, TTL int
	// Keys is true when the key parameter is variadic (DEL keys...).
	Keys bool
	// NoTTL is true when the function itself sets no expiry (TTL == -1).
	NoTTL bool
	// Judged is true when the function's own name says lock (TryLock,
	// Unlock): its command is judged where it is written, and a call of
	// it stands for the command only for what the caller supplies, the
	// token and the TTL.
	Judged bool
	// Script and Args are, for an EVAL, the parameter indices of the
	// script text and of the script arguments spread into it (args...);
	// -1 when the function fixes them. ScriptByName is true when the
	// parameter names the script in a map of the function's package
	// (scripts[name]), which only that package can read: scripts.
	Script, Args int
	ScriptByName bool
	scripts      *types.Var
	// Raw is true for a redigo-shaped Do of the service's own (a pooled
	// connection's helper) that passes its command name and arguments to
	// redigo's Do: a call of it is read as a call of redigo's Do.
	Raw bool
	// Stored is the text of the constant the function writes itself
	// (Value == -1), when StoredKnown: markProcessed(key) sets "processed".
	Stored      string
	StoredKnown bool
	// Record is true when the function is a record store's method
	// (recordstore.go): the key it is given holds a record.
	Record bool
}

func (*Forwarder) AFact() {}

func (f *Forwarder) String() string {
	return fmt.Sprintf("forwards %s key=%d value=%d ttl=%d", f.Command, f.Key, f.Value, f.TTL)
}

// forwardable are the commands a wrapper call stands for. A script is
// only when its text comes from the caller (scriptForward): a text fixed
// in the wrapper stays there.
func forwardable(c Command) bool {
	switch c {
	case CmdSetNX, CmdSet, CmdGet, CmdGetDel, CmdDel, CmdUnlink, CmdExpire, CmdPExpire, CmdExpireAt, CmdPExpireAt, CmdIncr, CmdDecr, CmdEval:
		return true
	}
	return false
}

// goRedisSignature returns the go-redis method that fn mirrors: a method
// of a user type or interface with the name and the exact signature of a
// go-redis command method (its results are go-redis command types, so the
// signature names the go-redis package). A wrapper interface is then as
// good as the client.
func goRedisSignature(fn *types.Func) *types.Func {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || sig.Results().Len() != 1 {
		return nil
	}
	if _, ok := goRedisMethods[fn.Name()]; !ok {
		return nil
	}
	ptr, ok := sig.Results().At(0).Type().(*types.Pointer)
	if !ok {
		return nil
	}
	n, ok := ptr.Elem().(*types.Named)
	if !ok || n.Obj().Pkg() == nil || clientPaths[n.Obj().Pkg().Path()] != GoRedis {
		return nil
	}
	cmdable := n.Obj().Pkg().Scope().Lookup("Cmdable")
	if cmdable == nil {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(cmdable.Type(), false, cmdable.Pkg(), fn.Name())
	m, ok := obj.(*types.Func)
	if !ok || !types.Identical(m.Type(), fn.Type()) {
		return nil
	}
	return m
}

// summarize returns the Forwarder fact of a function declared in this
// package: its body sends exactly one command, outside closures, whose key
// is one of its parameters.
func (m *Model) summarize(d *ast.FuncDecl, calls []*Call) *Forwarder {
	if d.Body == nil {
		return nil
	}
	var c *Call
	for _, o := range calls {
		if o.Command == CmdMulti || o.Command == CmdExec || o.Command == CmdWatch {
			return nil
		}
		// A command in a callback run on the spot (a circuit breaker's
		// Do(func() error {...})) is still the function's.
		if o.Decl != d || o.Deferred || c != nil {
			return nil
		}
		c = o
	}
	if c == nil || !forwardable(c.Command) || c.Flags&FlagUnknown != 0 || c.Queued {
		return nil
	}
	fn, _ := m.Pass.TypesInfo.Defs[d.Name].(*types.Func)
	if fn == nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	param := func(e ast.Expr) int {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return -1
		}
		v, _ := m.Pass.TypesInfo.Uses[id].(*types.Var)
		if v == nil || len(m.defs.assigns(v)) > 0 {
			// A parameter the body reassigns is no longer the caller's.
			return -1
		}
		for i := range sig.Params().Len() {
			if sig.Params().At(i) == v {
				return i
			}
		}
		return -1
	}
	// A TTL scaled from a parameter (time.Duration(seconds)*time.Second)
	// is that parameter: zero stays zero in any unit.
	scaled := func(e ast.Expr) int {
		if e == nil {
			return -1
		}
		if i := param(e); i >= 0 {
			return i
		}
		found, ok := -1, true
		ast.Inspect(e, func(n ast.Node) bool {
			if id, isID := n.(*ast.Ident); isID {
				if i := param(id); i >= 0 {
					ok = ok && (found < 0 || found == i)
					found = i
				} else if v, isVar := m.Pass.TypesInfo.Uses[id].(*types.Var); isVar && !v.IsField() {
					ok = false
				}
			}
			return ok
		})
		if !ok {
			return -1
		}
		return found
	}
	module := c.Module
	if !InMainModule(m.Pass) {
		// A framework's client (go-zero's Redis) is what its callers hold,
		// not the client it wraps: the library entry for its code is the
		// one for a client without an adapter.
		module = m.Pass.Pkg.Path()
	}
	f := &Forwarder{Command: c.Command, Flags: c.Flags, Client: c.Client, Module: module,
		Ctx: param(c.Ctx), Key: -1, Value: param(c.Value), TTL: scaled(c.TTL), Script: -1, Args: -1, Record: c.Record}
	if c.Command == CmdEval {
		if !m.scriptForward(c, f, sig, param) {
			return nil
		}
		return f
	}
	if f.Value < 0 && c.Value != nil {
		f.Stored, f.StoredKnown = storedText(m.Pass.TypesInfo.Types[c.Value].Value)
	}
	if c.Command == CmdSet && c.Flags&FlagNX != 0 && f.TTL >= 0 {
		// SET NX PX with the TTL from a parameter: the caller may pass 0.
		f.Command = CmdSetNX
	}
	last := sig.Params().Len() - 1
	var inner ast.Expr // KeyPrefix + inner, under the package's prefix
	if len(c.Keys) == 1 {
		inner = m.prefixed(c.Keys[0])
	}
	switch {
	case len(c.Keys) == 1 && param(c.Keys[0]) >= 0:
		f.Key = param(c.Keys[0])
	case len(c.Keys) == 1 && m.namespaced(c.Keys[0]) && stringParam(sig, param(c.Keys[0].(*ast.CallExpr).Args[0])):
		// serialKey(key), the package's namespace for every key: named
		// by what the caller passes.
		f.Key = param(c.Keys[0].(*ast.CallExpr).Args[0])
	case stringParam(sig, param(inner)):
		// KeyPrefix + key, the package's prefix of every key: named by
		// what the caller passes, as above.
		f.Key = param(inner)
	case c.Command.IsDelete() && c.Expr.Ellipsis.IsValid() && sig.Variadic() && param(c.Expr.Args[len(c.Expr.Args)-1]) == last:
		f.Key, f.Keys = last, true
	default:
		return nil
	}
	if !f.Keys && sig.Variadic() && f.Key == last {
		return nil
	}
	if f.TTL < 0 {
		f.NoTTL = c.NoTTL
	}
	if f.Judged = m.namesLock(d); f.Judged && (!f.Command.Writes() || (f.Value < 0 && f.TTL < 0)) {
		// Nothing the caller passes changes what is wrong with the
		// command: a DEL or EXPIRE in Unlock is reported in Unlock.
		return nil
	}
	return f
}

// stringParam reports whether parameter i of sig is a string.
func stringParam(sig *types.Signature, i int) bool {
	if i < 0 {
		return false
	}
	b, ok := sig.Params().At(i).Type().Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// scriptForward fills f for an EVAL that runs the script its caller
// names (a service's Scripter.Run(ctx, name, keys, args...)): the text
// is a parameter, or a map literal of the package indexed by one; the
// KEYS slice is a parameter; the arguments are none, or the variadic
// parameter spread. A text or keys fixed in the function are judged
// where they are written.
func (m *Model) scriptForward(c *Call, f *Forwarder, sig *types.Signature, param func(ast.Expr) int) bool {
	if c.Script == nil || c.KeysArg == nil || len(c.Keys) > 0 {
		return false
	}
	if f.Key = param(c.KeysArg); f.Key < 0 {
		return false
	}
	if f.Script = param(c.Script); f.Script < 0 {
		ix, ok := ast.Unparen(c.Script).(*ast.IndexExpr)
		if !ok {
			return false
		}
		if f.Script = param(ix.Index); f.Script < 0 {
			return false
		}
		if f.scripts = m.scriptMap(ix.X); f.scripts == nil {
			return false
		}
		f.ScriptByName = true
	}
	last := sig.Params().Len() - 1
	switch {
	case c.ArgsArg == nil:
	case c.Expr.Ellipsis.IsValid() && sig.Variadic() && param(c.ArgsArg) == last:
		f.Args = last
	default:
		return false
	}
	return f.Key != last && f.Script != last
}

// scriptMap returns the package-level map of constant strings e names
// (var scripts = map[string]string{"unlock": `...`}) when nothing else
// writes it: a script's name then decides its text.
func (m *Model) scriptMap(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := m.Pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil || len(m.defs.elems[v]) > 0 {
		return nil
	}
	if mt, ok := v.Type().Underlying().(*types.Map); !ok || !typesx.IsString(mt.Key()) {
		return nil
	}
	lit, ok := ast.Unparen(m.keys.single(v)).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil
		}
		if _, ok := constStringOf(m.Pass.TypesInfo, kv.Key); !ok {
			return nil
		}
	}
	return v
}

// namedScript returns the text a call names in the map of a ScriptByName
// forwarder: the value of the entry whose key is the constant name.
func (m *Model) namedScript(v *types.Var, name ast.Expr) ast.Expr {
	want, ok := constStringOf(m.Pass.TypesInfo, name)
	if !ok {
		return nil
	}
	lit, _ := ast.Unparen(m.keys.single(v)).(*ast.CompositeLit)
	if lit == nil {
		return nil
	}
	for _, el := range lit.Elts {
		kv := el.(*ast.KeyValueExpr)
		if k, _ := constStringOf(m.Pass.TypesInfo, kv.Key); k == want {
			return kv.Value
		}
	}
	return nil
}

// Forwards reports whether fn is a function of this package that forwards
// its parameters to a command whose value, if it has one, is the caller's:
// its callers are then where the command's findings belong.
func (m *Model) Forwards(fn *types.Func) bool {
	f := m.forwarders[fn.Origin()]
	return f != nil && (f.Value >= 0 || !f.Command.Writes())
}

// forwarded builds the command a call to a forwarder stands for.
func (b *builder) forwarded(call *ast.CallExpr, fn *types.Func, f *Forwarder) *Call {
	argAt := func(i int) ast.Expr {
		if i < 0 || i >= len(call.Args) || (call.Ellipsis.IsValid() && i == len(call.Args)-1) {
			return nil
		}
		return call.Args[i]
	}
	if f.Raw {
		return b.rawForwarded(call, fn, f)
	}
	c := &Call{Command: f.Command, Flags: f.Flags, Client: f.Client, Module: f.Module, Expr: call, Via: fn,
		ViaLock: f.Judged, Ctx: argAt(f.Ctx), Value: argAt(f.Value), Recv: recvOf(call), Record: f.Record}
	if f.Value < 0 {
		c.Stored, c.StoredKnown = f.Stored, f.StoredKnown
	}
	if f.Command == CmdEval {
		return b.forwardedScript(call, f, c, argAt)
	}
	if f.Keys {
		if f.Key >= len(call.Args) {
			return nil
		}
		if call.Ellipsis.IsValid() {
			c.Keys = sliceElems(call.Args[f.Key])
		} else {
			c.Keys = call.Args[f.Key:]
		}
	} else if k := argAt(f.Key); k != nil {
		c.Keys = []ast.Expr{k}
	} else {
		return nil
	}
	if f.TTL >= 0 {
		c.TTL = argAt(f.TTL)
		b.expiry(c)
		if c.Command == CmdSetNX && !c.NoTTL {
			c.Command, c.Flags = CmdSet, c.Flags|FlagNX
		}
	} else {
		// A missing TTL of a judged forwarder is reported in its body.
		c.NoTTL = f.NoTTL && !f.Judged
	}
	return c
}

// forwardedScript fills c, the EVAL a call of a script forwarder stands
// for, with the caller's script, keys and arguments.
func (b *builder) forwardedScript(call *ast.CallExpr, f *Forwarder, c *Call, argAt func(int) ast.Expr) *Call {
	keys := argAt(f.Key)
	if keys == nil {
		return nil
	}
	c.Keys = b.evalKeys(keys)
	c.Script = argAt(f.Script)
	if f.ScriptByName {
		name := c.Script
		c.Script = nil
		if f.scripts != nil && name != nil {
			c.Script = b.m.namedScript(f.scripts, name)
		}
	}
	if f.Args >= 0 && f.Args < len(call.Args) {
		if call.Ellipsis.IsValid() {
			c.Args = sliceElems(call.Args[f.Args])
		} else {
			c.Args = call.Args[f.Args:]
		}
	}
	return c
}

// wrapped returns the command a call of a non-client function stands for:
// a method with a go-redis command's signature, or a forwarder of this
// package or, through its fact, of another.
func (b *builder) wrapped(cur cursor, call *ast.CallExpr, fn *types.Func) *Call {
	if g := goRedisSignature(fn); g != nil {
		if c := b.goRedis(cur, call, g); c != nil {
			c.Via = fn
			// The signature names the go-redis package: its messages name
			// that client's library entry.
			c.Module = g.Pkg().Path()
			return c
		}
		return nil
	}
	if fn.Pkg() == b.pass.Pkg {
		if f := b.forwarders[fn.Origin()]; f != nil {
			return b.forwarded(call, fn, f)
		}
		return nil
	}
	// Only a package that reaches a client can have forwarders: most calls
	// go to the standard library and need no fact lookup.
	if b.reach == nil {
		b.reach = map[*types.Package]bool{}
	}
	if !ReachesClient(fn.Pkg(), (*types.Package).Path, (*types.Package).Imports, b.reach) {
		// A use case of the module that forwards to its own interface,
		// implemented in a package this one imports.
		if inModule(b.pass, fn.Pkg().Path()) {
			if f := b.layered(fn); f != nil {
				return b.forwarded(call, fn, f)
			}
		}
		return nil
	}
	var f Forwarder
	if b.pass.ImportObjectFact(fn.Origin(), &f) {
		// Another package's script map is not this package's to read,
		// whichever driver carried the fact.
		f.scripts = nil
		return b.forwarded(call, fn, &f)
	}
	return nil
}

// implementations returns, for a method of an interface declared in this
// package, the methods of this package's named types that implement it:
// a service's LockClient interface over its own *Client, or a Store with
// a Redis and an in-memory implementation.
func (m *Model) implementations(fn *types.Func) []*types.Func {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) {
		return nil
	}
	iface, ok := sig.Recv().Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	m.implsMu.Lock()
	defer m.implsMu.Unlock()
	if m.impls == nil {
		m.impls = map[*types.Func][]*types.Func{}
	}
	if impls, ok := m.impls[fn]; ok {
		return impls
	}
	impls := implementationsIn(m.Pass.Pkg, iface, fn.Name())
	m.impls[fn] = impls
	return impls
}

// implementationsIn returns the methods named method of pkg's named
// types that implement iface, through the type or its pointer.
func implementationsIn(pkg *types.Package, iface *types.Interface, method string) []*types.Func {
	var impls []*types.Func
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if !types.Implements(t, iface) {
				continue
			}
			obj, _, _ := types.LookupFieldOrMethod(t, false, pkg, method)
			if meth, _ := obj.(*types.Func); meth != nil {
				impls = append(impls, meth)
			}
			break
		}
	}
	return impls
}

// forwardingImplementation returns the forwarder of the implementations
// of fn, an interface method, that forward to a client, when they all
// forward alike: the Redis implementation next to an in-memory one for
// tests takes the calls that matter, and a single-node and a Cluster
// implementation that both send DEL send DEL. Forwarders that differ
// leave the call unknown.
func (b *builder) forwardingImplementation(fn *types.Func) *Forwarder {
	var found *Forwarder
	for _, impl := range b.m.implementations(fn) {
		f := b.forwarders[impl]
		switch {
		case f == nil:
		case found == nil:
			found = f
		case *f != *found:
			return nil
		}
	}
	return found
}
