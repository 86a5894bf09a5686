package lockmodel

import "github.com/locklint/locklint/analyzer/lockmodel/internal/lua"

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
			}
		}
		c.NoTTL = !lua.SetsTTL(calls, a)
		return
	}
}

// argvIndex returns n when the tokens are ARGV[n], or 0.
func argvIndex(a []lua.Token) int { return lua.TableIndex(a, "ARGV") }
