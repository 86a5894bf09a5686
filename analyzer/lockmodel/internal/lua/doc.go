// Package lua reads the Lua scripts a service sends with EVAL, as far as
// the lock rules need: the redis.call and redis.pcall invocations in
// order, the KEYS each argument names, how each reply is compared, and
// what the commands do to a lock. It knows nothing of Go or of the
// model; lockmodel gives the passes its results as LuaCall.
//
// The reader is tolerant rather than exact: a script is a Go constant
// that may hold anything, so it never fails, and it bounds its work.
package lua
