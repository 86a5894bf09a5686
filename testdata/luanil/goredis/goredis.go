package goredis

import (
	"context"
	_ "embed"
	"time"

	"github.com/redis/go-redis/v9"
)

// An acquire that never takes the lock: GET of a free key gives Lua
// false, never nil.
var acquire = redis.NewScript( /* want "Lua line 1: GET reply == nil never holds, as a nil reply is false in Lua; compare with false" */ `if redis.call('GET', KEYS[1]) == nil then
  return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return 0`)

func obtain(ctx context.Context, rdb *redis.Client, job, token string, ttl time.Duration) (bool, error) {
	n, err := acquire.Run(ctx, rdb, []string{"lock:" + job}, token, ttl.Milliseconds()).Int()
	return n == 1, err
}

// Near miss: the same acquire compared with false.
var acquireFalse = redis.NewScript(`if redis.call('GET', KEYS[1]) == false then
  return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return 0`)

func obtainFalse(ctx context.Context, rdb *redis.Client, job, token string) error {
	return acquireFalse.Run(ctx, rdb, []string{"lock:" + job}, token, 30000).Err()
}

// A release whose "not held" branch never runs, through a local and EVAL.
const releaseLua = /* want "Lua line 2: GET reply ~= nil always holds" */ `local v = redis.call("GET", KEYS[1])
if v ~= nil and v ~= ARGV[1] then return -1 end
return redis.call("DEL", KEYS[1])`

func release(ctx context.Context, rdb redis.UniversalClient, key, token string) error {
	return rdb.Eval(ctx, releaseLua, []string{key}, token).Err()
}

// Near miss: not v, and the owner compared with ARGV[1].
const releaseNotLua = `local v = redis.call("GET", KEYS[1])
if not v then return -1 end
if v ~= ARGV[1] then return 0 end
return redis.call("DEL", KEYS[1])`

func releaseNot(ctx context.Context, rdb redis.UniversalClient, key, token string) error {
	return rdb.Eval(ctx, releaseNotLua, []string{key}, token).Err()
}

// nil on the left, through EvalSha of the script ScriptLoad loaded.
const refreshLua = /* want "Lua line 1: GET reply == nil never holds" */ `if nil == redis.call('GET', KEYS[1]) then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[1])`

func refresh(ctx context.Context, rdb *redis.Client, key string) error {
	sha := rdb.ScriptLoad(ctx, refreshLua).Val()
	return rdb.EvalSha(ctx, sha, []string{key}, 30000).Err()
}

// not v == nil is (not v) == nil: never true. No fix: what it meant is not
// written.
var notNil = redis.NewScript( /* want "Lua line 2: `not` applies before `==`, so this compares a boolean with nil and never holds; test the GET reply itself" */ `local v = redis.call('GET', KEYS[1])
if not v == nil then return 0 end
return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])`)

func notNilRun(ctx context.Context, rdb *redis.Client, key, token string) error {
	return notNil.Run(ctx, rdb, []string{key}, token, 30000).Err()
}

// An embedded script: reported at the variable, with the file's line,
// and no fix (the edit would be in the .lua file).
//
//go:embed scripts/acquire.lua
var acquireFile string // want "scripts/acquire\\.lua:3: GET reply == nil never holds"

var acquireFromFile = redis.NewScript(acquireFile)

func obtainFile(ctx context.Context, rdb *redis.Client, key, token string) error {
	return acquireFromFile.Run(ctx, rdb, []string{key}, token, 30000).Err()
}

// Near miss: the embedded script written right.
//
//go:embed scripts/acquire_ok.lua
var acquireOKFile string

var acquireOK = redis.NewScript(acquireOKFile)

func obtainOK(ctx context.Context, rdb *redis.Client, key, token string) error {
	return acquireOK.Run(ctx, rdb, []string{key}, token, 30000).Err()
}

// An escape before the nil does not stop the fix; one in it would.
const escapedLua = "local v = redis.call('GET', KEYS[1])\nif v == nil then return 1 end return 0" // want "Lua line 2: GET reply == nil never holds"

const escapedNilLua = "local v = redis.call('GET', KEYS[1])\nif v == n\x69l then return 1 end return 0" // want "Lua line 2: GET reply == nil never holds"

func escaped(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Eval(ctx, escapedLua, []string{key})
	rdb.Eval(ctx, escapedNilLua, []string{key})
}

// Concatenated constants: reported, no fix.
const (
	getLocal = "local v = redis.call('GET', KEYS[1])\n"
	testNil  = "if v == nil then return 1 end return 0"
)

func concat(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Eval(ctx, getLocal+testNil, []string{key}).Err() // want "Lua line 2: GET reply == nil never holds"
}

// One script run twice is reported once.
var twice = redis.NewScript(`return redis.call('EXISTS', KEYS[1]) ~= nil`) // want "Lua line 1: EXISTS reply ~= nil always holds"

func runTwice(ctx context.Context, rdb *redis.Client, a, b string) {
	twice.Run(ctx, rdb, []string{a})
	twice.Run(ctx, rdb, []string{b})
}

// Near miss: suppressed with a reason.
//
//locklint:ignore luanil the script only runs against a server proxy that maps null replies to nil
const proxiedLua = `if redis.call('GET', KEYS[1]) == nil then return 1 end return 0`

func proxied(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Eval(ctx, proxiedLua, []string{key}).Err()
}

// Near miss: text built at run time, and a script only in a comment:
//
//	rdb.Eval(ctx, `if redis.call('GET', KEYS[1]) == nil then return 1 end`, keys)
func dynamic(ctx context.Context, rdb *redis.Client, src, key string) error {
	return rdb.Eval(ctx, src+" == nil", []string{key}).Err()
}
