package lockmodel

// Expiries that end a key at once: a delete written as an EXPIRE.

import (
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// endsNow reports whether c, an EXPIRE-family command, removes its key
// at once: a relative TTL that is a constant of zero or less, or an
// absolute one read from the clock at the call (time.Now(), or its
// Unix or UnixMilli for the clients that take a number).
func (b *builder) endsNow(c *Call) bool {
	if c.TTL == nil {
		return false
	}
	info := b.pass.TypesInfo
	switch c.Command {
	case CmdExpire, CmdPExpire:
		tv, ok := info.Types[c.TTL]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			return false
		}
		return constant.Sign(tv.Value) <= 0
	case CmdExpireAt, CmdPExpireAt:
		e := ast.Unparen(c.TTL)
		if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 0 {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Unix" || sel.Sel.Name == "UnixMilli") {
				e = ast.Unparen(sel.X)
			}
		}
		call, ok := e.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "time" && fn.Name() == "Now"
	}
	return false
}
