package lockmodel

// The Lua reader lives in internal/lua; these are the names the passes
// know it by.

import "github.com/locklint/locklint/analyzer/lockmodel/internal/lua"

// LuaCall is one redis.call or redis.pcall in a script.
type LuaCall = lua.Call

// LuaNilCheck is one comparison of a call's reply with nil.
type LuaNilCheck = lua.NilCheck

// LuaCalls finds the redis.call and redis.pcall invocations of a script,
// in source order, with the KEYS each argument names and the comparisons
// of their replies.
func LuaCalls(src string) []*LuaCall { return lua.Calls(src) }

// LuaAcquires reports whether calls[i] takes its key only if it is free
// (see lua.Acquires).
func LuaAcquires(calls []*LuaCall, i int) bool { return lua.Acquires(calls, i) }

// LuaChecked reports whether the script compares a read of KEYS[k] with
// an owner's value before w (see lua.Checked).
func LuaChecked(calls []*LuaCall, w *LuaCall, k int) bool { return lua.Checked(calls, w, k) }
