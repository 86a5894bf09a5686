package lockmodel

// How long a command's lease lasts, and whether a command extends one.

import (
	"go/ast"
	"go/constant"
	"go/types"
	"time"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// Lease returns c's TTL when it is a constant duration: a lease argument
// of a client method, or a time.Duration given to a helper that forwards
// it.
func (m *Model) Lease(c *Call) (time.Duration, bool) {
	if c.TTL == nil {
		return 0, false
	}
	tv, ok := m.Pass.TypesInfo.Types[c.TTL]
	if !ok || tv.Value == nil || !c.Lease && !typesx.IsDuration(tv.Type) {
		return 0, false
	}
	n, exact := constant.Int64Val(constant.ToInt(tv.Value))
	if !exact || n <= 0 {
		return 0, false
	}
	return time.Duration(n), true
}

// LibraryLease returns the lease a known lock library's acquire asks for,
// when its TTL parameter (bsm/redislock's Obtain(ctx, key, ttl, opt)) is
// given a constant.
func (m *Model) LibraryLease(call *ast.CallExpr) (time.Duration, bool) {
	fn, _ := typeutil.Callee(m.Pass.TypesInfo, call).(*types.Func)
	if fn == nil || !LibraryAcquire(fn) {
		return 0, false
	}
	ps := fn.Type().(*types.Signature).Params()
	for i := range min(ps.Len(), len(call.Args)) {
		if !typesx.IsDuration(ps.At(i).Type()) {
			continue
		}
		tv, ok := m.Pass.TypesInfo.Types[call.Args[i]]
		if !ok || tv.Value == nil {
			return 0, false
		}
		n, exact := constant.Int64Val(constant.ToInt(tv.Value))
		if !exact || n <= 0 {
			return 0, false
		}
		return time.Duration(n), true
	}
	return 0, false
}

// Expiry returns the TTL an EXPIRE or PEXPIRE sets when it is a
// constant: a time.Duration as it is, a number in the command's unit
// (seconds for EXPIRE, milliseconds for PEXPIRE).
func (m *Model) Expiry(e *Call) (time.Duration, bool) {
	if e.TTL == nil || e.Command != CmdExpire && e.Command != CmdPExpire {
		return 0, false
	}
	tv, ok := m.Pass.TypesInfo.Types[e.TTL]
	if !ok || tv.Value == nil {
		return 0, false
	}
	n, exact := constant.Int64Val(constant.ToInt(tv.Value))
	if !exact || n <= 0 {
		return 0, false
	}
	switch {
	case typesx.IsDuration(tv.Type):
		return time.Duration(n), true
	case e.Command == CmdExpire:
		return time.Duration(n) * time.Second, true
	}
	return time.Duration(n) * time.Millisecond, true
}

// Extends reports whether c sets a key's expiry again: an EXPIRE-family
// command that keeps the key, or a script that runs one.
func (m *Model) Extends(c *Call) bool {
	if c.Command.IsExpire() {
		return !c.EndsNow
	}
	if c.Command != CmdEval {
		return false
	}
	text, ok := m.ScriptText(c)
	if !ok {
		// A script the model cannot read may extend.
		return true
	}
	for _, w := range LuaCalls(text.Text) {
		if w.Extends() {
			return true
		}
	}
	return false
}
