package lockmodel

import (
	"go/ast"
	"go/types"

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
