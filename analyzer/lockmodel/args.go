package lockmodel

// Arguments and constants: a callee's arguments by parameter name, the
// keys spread from a slice, and the values the type checker decides.

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// params maps a callee's parameter names to argument indices.
func params(fn *types.Func) map[string]int {
	sig := fn.Type().(*types.Signature)
	out := make(map[string]int, sig.Params().Len())
	for i := range sig.Params().Len() {
		out[sig.Params().At(i).Name()] = i
	}
	return out
}

// arg returns the argument for the named parameter, or nil.
func arg(call *ast.CallExpr, ps map[string]int, names ...string) ast.Expr {
	for _, name := range names {
		if i, ok := ps[name]; ok && i < len(call.Args) {
			return call.Args[i]
		}
	}
	return nil
}

// variadic returns the arguments from the named parameter on, or the
// elements of a []T{...} literal passed to a slice parameter.
func variadic(call *ast.CallExpr, ps map[string]int, name string) []ast.Expr {
	i, ok := ps[name]
	if !ok || i >= len(call.Args) {
		return nil
	}
	if call.Ellipsis.IsValid() {
		return sliceElems(call.Args[i])
	}
	return call.Args[i:]
}

// spreadKeys returns the keys of a DEL whose keys are spread from a
// slice: a literal's elements, or those a local variable is built from,
// a literal or make and then append(v, k, ...) only (the start-up sweep
// that deletes every job's key in one command). A slice built any other
// way leaves the keys unknown.
func (b *builder) spreadKeys(e ast.Expr) []ast.Expr {
	if els := sliceElems(e); els != nil {
		return els
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := b.pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil || v.Parent() == nil || v.Parent() == b.pass.Pkg.Scope() || len(b.m.defs.elems[v]) > 0 {
		return nil
	}
	var keys []ast.Expr
	for _, d := range b.m.defs.vars[v] {
		switch val := ast.Unparen(d.val).(type) {
		case nil:
			if d.addr || d.tuple != nil || !d.zero {
				return nil
			}
		case *ast.CompositeLit:
			keys = append(keys, sliceElems(val)...)
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(b.pass.TypesInfo, val).(*types.Builtin)
			switch {
			case d.addr || fn == nil:
				return nil
			case fn.Name() == "make":
			case fn.Name() == "append" && !val.Ellipsis.IsValid() && len(val.Args) > 1:
				if first, ok := ast.Unparen(val.Args[0]).(*ast.Ident); !ok || b.pass.TypesInfo.Uses[first] != v {
					return nil
				}
				keys = append(keys, val.Args[1:]...)
			default:
				return nil
			}
		default:
			return nil
		}
	}
	return keys
}

func sliceElems(e ast.Expr) []ast.Expr {
	if lit, ok := ast.Unparen(e).(*ast.CompositeLit); ok {
		for _, el := range lit.Elts {
			if _, kv := el.(*ast.KeyValueExpr); kv {
				return nil
			}
		}
		return lit.Elts
	}
	return nil
}

// constString returns the constant string value of e, if it has one.
func (b *builder) constString(e ast.Expr) (string, bool) {
	return constStringOf(b.pass.TypesInfo, e)
}

func constStringOf(info *types.Info, e ast.Expr) (string, bool) {
	if e == nil {
		return "", false
	}
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value), true
	}
	return "", false
}

// noTTL reports whether an expiry argument means "no expiry": constant
// zero, or a negative constant such as go-redis KeepTTL, which on a key NX
// just created keeps no TTL at all; or a numeric field that nothing sets
// (s.opts.TTL, see unset), which is zero.
func (b *builder) noTTL(e ast.Expr) bool {
	if e == nil {
		return true
	}
	tv, ok := b.pass.TypesInfo.Types[e]
	if !ok {
		return false
	}
	if tv.Value == nil {
		return isNumber(tv.Type) && b.m.defs.unset(e)
	}
	switch tv.Value.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(tv.Value) <= 0
	}
	return false
}

// recvOf returns the receiver expression of a method call.
func recvOf(call *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// objOf returns the object an identifier (possibly parenthesized) denotes.
func (b *builder) objOf(e ast.Expr) types.Object {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		return b.pass.TypesInfo.ObjectOf(id)
	}
	return nil
}

// upper normalizes a command or flag spelling.
func upper(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// constInt returns the constant integer value of e, if it has one.
func (b *builder) constInt(e ast.Expr) (int, bool) {
	if tv, ok := b.pass.TypesInfo.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Int {
		if n, exact := constant.Int64Val(tv.Value); exact && n >= 0 && n < 1<<16 {
			return int(n), true
		}
	}
	return 0, false
}
