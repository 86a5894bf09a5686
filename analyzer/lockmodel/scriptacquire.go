package lockmodel

import (
	"strings"
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
			}
		}
		c.NoTTL = !luaSetsTTL(calls, a)
		return
	}
}

// LuaAcquires reports whether calls[i] takes its key only if it is free:
// SETNX, SET NX, or a SET after an EXISTS of the same key or after a GET
// of it whose reply the script tests for nothing (the free case, often
// with the caller's own value let in again); or, for a
// reentrant hash lock, a write of the holder's field (HINCRBY, HSET)
// after an EXISTS of the key, the acquire Redisson made common.
func LuaAcquires(calls []*LuaCall, i int) bool {
	a := calls[i]
	switch {
	case a.Command == "SETNX":
		return true
	case a.Command == "SET":
		if a.HasFlag("NX") {
			return true
		}
		if a.HasFlag("XX") || a.HasFlag("IFEQ") {
			return false
		}
		return existsBefore(calls[:i], a.Key()) || absentBefore(calls[:i], a)
	case a.TakesHash():
		return existsBefore(calls[:i], a.Key())
	}
	return false
}

// existsBefore reports whether one of calls asks whether KEYS[k] exists.
func existsBefore(calls []*LuaCall, k int) bool {
	if k == 0 {
		return false
	}
	for _, b := range calls {
		if b.Command == "EXISTS" && b.Key() == k {
			return true
		}
	}
	return false
}

// absentBefore reports whether one of calls is a GET of a's key whose
// reply is tested for nothing before a: the script sets the key when it
// found it free. A GET compared only with a value (a compare-and-refresh)
// is no such test.
func absentBefore(calls []*LuaCall, a *LuaCall) bool {
	k := a.Key()
	if k == 0 {
		return false
	}
	for _, b := range calls {
		if b.Command == "GET" && b.Key() == k && b.AbsentAt >= 0 && b.AbsentAt < a.At {
			return true
		}
	}
	return false
}

// luaSetsTTL reports whether the script gives a's key a TTL: in the SET
// itself or with an EXPIRE-family command on it.
func luaSetsTTL(calls []*LuaCall, a *LuaCall) bool {
	for _, f := range []string{"PX", "EX", "PXAT", "EXAT"} {
		if a.HasFlag(f) {
			return true
		}
	}
	for _, b := range calls {
		if strings.Contains(b.Command, "EXPIRE") && b.Key() == a.Key() {
			return true
		}
	}
	return false
}

// argvIndex returns n when the tokens are ARGV[n], or 0.
func argvIndex(a []luaToken) int { return tableIndex(a, "ARGV") }
