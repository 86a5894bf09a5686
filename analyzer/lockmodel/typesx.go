package lockmodel

import (
	"go/types"
)

// The type questions the model asks, in one place (as x/tools keeps
// them in typesinternal): the named type behind a value, the named type a
// method or receiver variable belongs to, and what kind of value a type
// holds.

// namedOf returns t's named type, through one pointer, or nil; for an
// instance of a generic type, the generic type itself, so that values of
// Mutex[A] and Mutex[B] belong to one type.
func namedOf(t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := t.(*types.Named)
	if n != nil {
		n = n.Origin()
	}
	return n
}

// nameOf returns the name of t's named type (through one pointer), or "".
func nameOf(t types.Type) string {
	if n := namedOf(t); n != nil {
		return n.Obj().Name()
	}
	return ""
}

// recvTypeName returns the name of the type a method is declared on, or
// "" for a function.
func recvTypeName(fn *types.Func) string {
	if r := fn.Type().(*types.Signature).Recv(); r != nil {
		return nameOf(r.Type())
	}
	return ""
}

// recvType returns the receiver's type name when obj is a method
// receiver variable, or "".
func recvType(obj types.Object) string {
	if v, ok := obj.(*types.Var); ok && v.Kind() == types.RecvVar {
		return nameOf(v.Type())
	}
	return ""
}

// goRedisTypeName returns the name of t's named type (through one pointer)
// when it is declared in a go-redis package, or "".
func goRedisTypeName(t types.Type) string {
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil || clientPaths[n.Obj().Pkg().Path()] != GoRedis {
		return ""
	}
	return n.Obj().Name()
}

// isPointer reports whether t's underlying type is a pointer.
func isPointer(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// isNumber reports whether t's underlying type is an integer or a float:
// a duration, seconds or milliseconds.
func isNumber(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsFloat) != 0
}
