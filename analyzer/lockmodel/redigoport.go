package lockmodel

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// A service that mocks redigo declares the part of redis.Conn it uses as
// an interface of its own and never imports redigo there:
//
//	type Conn interface {
//		Do(commandName string, args ...interface{}) (reply interface{}, err error)
//		Send(commandName string, args ...interface{}) error
//	}
//
// Do with that shape (a command name, its arguments, a reply and an error)
// is redigo's Do whatever the parameters are called, and so is Send beside
// it. As with go-redis ports, an interface the package implements is read
// through its implementations instead.

// redigoPortName and redigoPortArgs are the positions of Do's parameters.
const (
	redigoPortName = 0
	redigoPortArgs = 1
)

// redigoPort reads a call of Do or Send of a redigo-shaped interface that
// is no client's and that the package does not implement.
func (b *builder) redigoPort(cur cursor, call *ast.CallExpr, fn *types.Func) *Call {
	if fn.Name() != "Do" && fn.Name() != "Send" {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !isRedigoPort(sig.Recv().Type()) || !redigoShaped(fn) || len(b.m.implementations(fn)) > 0 {
		return nil
	}
	ps := map[string]int{"commandName": redigoPortName, "args": redigoPortArgs}
	conn := recvOf(call)
	c := b.rawCommand(call, ps, fn.Name(), arg(call, ps, "commandName"), conn, variadic(call, ps, "args"))
	if c == nil {
		return nil
	}
	b.redigoBatch(cur, c, conn, fn.Name() == "Send")
	c.Client, c.Via = Redigo, fn
	return c
}

// isRedigoPort reports whether the interface t has a Do of redigo's shape.
func isRedigoPort(t types.Type) bool {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for i := range iface.NumMethods() {
		if m := iface.Method(i); m.Name() == "Do" {
			return redigoShaped(m)
		}
	}
	return false
}

// redigoShaped reports whether fn is Do(string, ...interface{})
// (interface{}, error) or Send(string, ...interface{}) error.
func redigoShaped(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	ps, rs := sig.Params(), sig.Results()
	if ps.Len() != 2 || !sig.Variadic() || !typesx.IsString(ps.At(0).Type()) {
		return false
	}
	if s, ok := ps.At(1).Type().(*types.Slice); !ok || !typesx.IsEmptyInterface(s.Elem()) {
		return false
	}
	switch fn.Name() {
	case "Do":
		return rs.Len() == 2 && typesx.IsEmptyInterface(rs.At(0).Type()) && typesx.IsError(rs.At(1).Type())
	case "Send":
		return rs.Len() == 1 && typesx.IsError(rs.At(0).Type())
	}
	return false
}

// rawForwarders finds the package's redigo-shaped Do functions and
// methods that pass their command name and arguments, unchanged, to
// redigo's Do (a helper that gets a pooled connection, logs the command
// and puts the connection back), and records them as forwarders. It
// reports whether it found one.
func (b *builder) rawForwarders() bool {
	found := false
	for _, n := range b.m.defs.decls {
		d, ok := n.(*ast.FuncDecl)
		if !ok || d.Body == nil || d.Name.Name != "Do" {
			continue
		}
		fn, _ := b.pass.TypesInfo.Defs[d.Name].(*types.Func)
		if fn == nil || !redigoShaped(fn) {
			continue
		}
		if module := b.rawDoOf(d, fn); module != "" {
			if !InMainModule(b.pass) {
				module = b.pass.Pkg.Path()
			}
			b.forwarders[fn] = &Forwarder{Raw: true, Client: Redigo, Module: module,
				Ctx: -1, Key: -1, Value: -1, TTL: -1, Script: -1, Args: -1}
			found = true
		}
	}
	return found
}

// rawDoOf returns the client package of the one Do call in d's body,
// outside closures, that sends d's command name and spreads its
// arguments: redigo's Conn.Do, or a redigo-shaped port's. It returns ""
// when there is none, or more than one call of Do.
func (b *builder) rawDoOf(d *ast.FuncDecl, fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	name, args := sig.Params().At(redigoPortName), sig.Params().At(redigoPortArgs)
	is := func(e ast.Expr, v *types.Var) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && b.pass.TypesInfo.Uses[id] == v && len(b.m.defs.assigns(v)) == 0
	}
	module, calls := "", 0
	typesx.OutsideClosures(d.Body, func(n ast.Node) (bool, bool) {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false, false
		}
		inner, _ := typeutil.Callee(b.pass.TypesInfo, call).(*types.Func)
		if inner == nil || inner.Name() != "Do" || inner == fn || !redigoShaped(inner) {
			return false, false
		}
		calls++
		if len(call.Args) == 2 && call.Ellipsis.IsValid() && is(call.Args[0], name) && is(call.Args[1], args) {
			if inner.Pkg() != nil && clientPaths[inner.Pkg().Path()] == Redigo {
				module = inner.Pkg().Path()
			} else if recv := inner.Type().(*types.Signature).Recv(); recv != nil && isRedigoPort(recv.Type()) {
				module = b.pass.Pkg.Path()
			}
		}
		return false, false
	})
	if calls != 1 {
		return ""
	}
	return module
}

// rawForwarded reads a call of a raw forwarder as redigo's Do.
func (b *builder) rawForwarded(call *ast.CallExpr, fn *types.Func, f *Forwarder) *Call {
	ps := map[string]int{"commandName": redigoPortName, "args": redigoPortArgs}
	c := b.rawCommand(call, ps, fn.Name(), arg(call, ps, "commandName"), recvOf(call), variadic(call, ps, "args"))
	if c == nil {
		return nil
	}
	c.Client, c.Module, c.Via = Redigo, f.Module, fn
	return c
}
