package lockmodel

import (
	"go/ast"

	"github.com/locklint/locklint/analyzer/lockmodel/internal/lua"
)

// A script can take a lock as well as SET NX can: SET KEYS[1] ARGV[1] NX
// PX ARGV[2], SETNX, or EXISTS KEYS[1] then SET and PEXPIRE. The model
// marks such an EVAL as an acquire of KEYS[1] (FlagNX on CmdEval), with
// the ARGV it stores as the value, so that the token, retry and TTL
// questions are asked of it as of any acquire.

// scriptAcquire marks c, an EVAL, as an acquire when its script takes
// KEYS[1] and sets nothing else before it.
func (m *Model) scriptAcquire(c *Call) {
	if len(c.Keys) == 0 {
		return
	}
	text, ok := m.ScriptText(c)
	if !ok {
		return
	}
	calls := LuaCalls(text.Text)
	for i, a := range calls {
		if a.Key() != 1 || !LuaAcquires(calls, i) {
			continue
		}
		c.Flags |= FlagNX
		if len(a.Args) > 1 {
			if n := argvIndex(a.Args[1]); n > 0 && n <= len(c.Args) {
				c.Value = c.Args[n-1]
			} else if v := a.Args[1]; (a.Command == "SET" || a.Command == "SETNX") && lua.Literal(v) {
				// A hash take's second argument is a field's name, not
				// what the holder is known by.
				c.ScriptValue = text.Text[v[0].Off:v[0].End]
			}
		}
		c.NoTTL = !lua.SetsTTL(calls, a)
		return
	}
}

// argvIndex returns n when the tokens are ARGV[n], or 0.
func argvIndex(a []lua.Token) int { return lua.TableIndex(a, "ARGV") }

// scriptValue is the origin of the literal c's script stores: a constant,
// when a release or renewal of the key compares its value with the
// caller's, so that every holder passes the check with the one value.
// A literal nothing compares is a plain flag, whose release is
// unconditionaldel's question, not a token's.
func (t *Tokens) scriptValue(c *Call) TokenOrigin {
	if !t.m.valueChecked(c) {
		return TokenOrigin{}
	}
	text, _ := t.m.ScriptText(c)
	return origin(OriginConstant, SourceConstant, c.ScriptValue, text.At)
}

// valueChecked reports whether a call of the package other than c
// compares the value of c's key, or of a key of its family built in
// another function ("lock:"+name in Lock and in Renew), with the caller's:
// a script that reads the key and compares the reply with an ARGV or a
// variable, or a SET or DELEX IFEQ.
func (m *Model) valueChecked(c *Call) bool {
	same, ok := m.sameKeyOf(c)
	if !ok {
		return false
	}
	for _, o := range m.Calls {
		// Lock(key) and Unlock(key) of one type take and check what
		// their caller names.
		sameHere := func(k ast.Expr) bool { return same(k) || m.sameParamKey(c, c.Key(), o, k) }
		switch {
		case o == c:
		case o.Command == CmdEval:
			if checks, known := m.scriptCompares(o, sameHere); known && checks {
				return true
			}
		case o.Flags&FlagIFEQ != 0:
			if o.Key() != nil && sameHere(o.Key()) {
				return true
			}
		}
	}
	return false
}

// scriptCompares reports whether o, an EVAL, reads a key it is given
// that same accepts and compares the reply with a value that can be an
// owner's; known is false when the script's text cannot be read.
func (m *Model) scriptCompares(o *Call, same func(ast.Expr) bool) (checks, known bool) {
	text, ok := m.ScriptText(o)
	if !ok {
		return false, false
	}
	for _, g := range LuaCalls(text.Text) {
		if j := g.Key(); g.ReadsOwner() && g.CheckedAt >= 0 && j > 0 && j <= len(o.Keys) && same(o.Keys[j-1]) {
			return true, true
		}
	}
	return false, true
}

// releaseScript reports whether o is an EVAL whose text is read and that
// compares the value of a key it is given with an owner's before it
// removes that key: a compare-and-delete release.
func (m *Model) releaseScript(o *Call) bool { return m.scriptReleases(o, 0) }

// scriptReleases reports whether o is an EVAL whose text is read and that
// removes its j-th key (1-based; any key when j is 0) only after
// comparing its value with an owner's.
func (m *Model) scriptReleases(o *Call, j int) bool {
	if o.Command != CmdEval {
		return false
	}
	text, ok := m.ScriptText(o)
	if !ok {
		return false
	}
	calls := LuaCalls(text.Text)
	for _, g := range calls {
		if k := g.Key(); g.Removes() && k > 0 && (j == 0 || k == j) && LuaChecked(calls, g, k) {
			return true
		}
	}
	return false
}

// scriptExtends reports whether o, an EVAL whose text is read, sets the
// TTL of a key it is given that same accepts.
func (m *Model) scriptExtends(o *Call, same func(ast.Expr) bool) bool {
	text, ok := m.ScriptText(o)
	if !ok {
		return false
	}
	for _, g := range LuaCalls(text.Text) {
		if j := g.Key(); g.Extends() && j > 0 && j <= len(o.Keys) && same(o.Keys[j-1]) {
			return true
		}
	}
	return false
}
