// Package luanil defines an Analyzer that reports Lua scripts that compare
// a Redis reply with nil.
//
// # Analyzer luanil
//
// luanil: report a Lua script that compares a redis.call reply with nil, which Redis never gives
//
// Redis converts a nil reply (GET of a missing key) into Lua false, not
// nil, and every other reply into a number, a string or a table: a reply
// is never nil. So redis.call('GET', KEYS[1]) == nil never holds and ~=
// nil always does. In a lock script that is an acquire that never takes
// a free lock, or a release or renewal whose "not held" branch never
// runs:
//
//	var acquire = redis.NewScript(`if redis.call('GET', KEYS[1]) == nil then
//	  return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
//	end
//	return 0`)
//
// Compare with false, or test the reply itself:
//
//	var acquire = redis.NewScript(`if redis.call('GET', KEYS[1]) == false then
//	  return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
//	end
//	return 0`)
//
// (or SET ... NX PX in one command, or fix.Obtain from
// github.com/locklint/locklint/analyzer/fix). not v == nil is reported
// too: Lua reads it as (not v) == nil, a boolean compared with nil,
// always false.
//
// The reply is the call itself, in parentheses or not, on either side,
// or a local assigned it (local v = redis.call(...)) and not assigned
// anything else before the comparison. Silent on comparisons with false,
// on not v, on values that are not the reply (tonumber(v) == nil, which
// is nil for false and so a real test; ARGV[1] == nil; a table's field
// or element, as in a redis.pcall error table's err), and after the
// script switches its replies to RESP3 with redis.setresp(3), where a
// null reply is Lua nil.
//
// The script text is read as unguardedscript reads it (constants,
// literals, //go:embed files, through EVAL, EVALSHA after SCRIPT LOAD,
// go-redis and redigo NewScript, rueidis NewLuaScript) and the finding is
// reported where the text is written, with the Lua line. The suggested
// fix writes false for nil when the script is one string literal whose
// bytes there are written as themselves (no escape), so the edit of the
// source is the edit of the script; not v == nil gets no fix, as what
// it meant is not written.
package luanil
