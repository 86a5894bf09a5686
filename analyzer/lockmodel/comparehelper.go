package lockmodel

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// An owner compare is often a small helper of the package's own:
//
//	func ownedBy(stored, value string) bool { return strings.HasPrefix(stored, value+":") }
//	if !ownedBy(stored, l.value) { return nil }
//
// A GET reply passed to such a helper beside a value that is not constant
// is compared, as much as with == in place.

// maxHelperStmts bounds the helpers read as compares: a few statements
// that decide one bool, not a function that does work of its own.
const maxHelperStmts = 4

// compareFuncs are the library functions that compare their two
// arguments.
var compareFuncs = map[string]bool{
	"strings.HasPrefix": true, "strings.HasSuffix": true, "strings.EqualFold": true, "strings.Compare": true,
	"bytes.Equal": true, "bytes.HasPrefix": true, "bytes.HasSuffix": true, "bytes.EqualFold": true,
}

// comparedInHelper reports whether c's reply, directly or through the
// variable it is assigned to, is passed with a non-constant value to a
// function of the package that returns one bool and compares the reply's
// parameter with something else.
func (b *builder) comparedInHelper(c *Call) bool {
	if c.Func == nil {
		return false
	}
	info := b.pass.TypesInfo
	isReply := b.isReply(c)
	found := false
	ast.Inspect(c.Func, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok || len(call.Args) < 2 || call.Ellipsis.IsValid() {
			return !found
		}
		at, other := -1, false
		for i, a := range call.Args {
			switch {
			case at < 0 && isReply(a):
				at = i
			case !b.constant(a):
				other = true
			}
		}
		if at < 0 || !other {
			return true
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		if fn == nil || fn.Pkg() != b.pass.Pkg {
			return true
		}
		decl := b.m.defs.funcs[fn]
		found = decl != nil && comparesParam(info, decl, at)
		return !found
	})
	return found
}

// comparesParam reports whether decl is a small function returning one
// bool whose body compares its parameter i, with == or != or a library
// compare, with a value that is not constant.
func comparesParam(info *types.Info, decl *ast.FuncDecl, i int) bool {
	fn, _ := info.Defs[decl.Name].(*types.Func)
	if fn == nil || decl.Body == nil || len(decl.Body.List) > maxHelperStmts {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) || i >= sig.Params().Len() {
		return false
	}
	p := sig.Params().At(i)
	mentions := func(e ast.Expr) bool { return typesx.Refers(info, e, p) }
	constant := func(e ast.Expr) bool {
		tv, ok := info.Types[ast.Unparen(e)]
		return ok && tv.Value != nil
	}
	pair := func(x, y ast.Expr) bool {
		return (mentions(x) && !mentions(y) && !constant(y)) || (mentions(y) && !mentions(x) && !constant(x))
	}
	return typesx.OutsideClosures(decl.Body, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			return (n.Op == token.EQL || n.Op == token.NEQ) && pair(n.X, n.Y), false
		case *ast.CallExpr:
			f, _ := typeutil.Callee(info, n).(*types.Func)
			return f != nil && f.Pkg() != nil && len(n.Args) == 2 &&
				compareFuncs[f.Pkg().Path()+"."+f.Name()] && pair(n.Args[0], n.Args[1]), false
		}
		return false, false
	})
}
