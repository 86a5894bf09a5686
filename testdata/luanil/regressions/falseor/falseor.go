// Package falseor pins the false report in cheetah-fun-gs/goplus's extend
// script: `v == nil or (type(v) == 'boolean' and v == false)`. The nil half
// never holds, but the or-ed half takes the missing-key branch, so the
// script does what it means: dead code, not a bug. The twin compares with
// nil alone, and its missing-key branch never runs.
package falseor

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Near miss (silent): nil or-ed with a test for false.
var extend = redis.NewScript(`local v = redis.call('GET', KEYS[1])
if v == nil or (type(v) == 'boolean' and v == false) then
	return 0
end
if v == ARGV[1] then
	return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return -1`)

// Must report: the missing-key branch never runs.
var extendNil = redis.NewScript( /* want "Lua line 2: GET reply == nil never holds" */ `local v = redis.call('GET', KEYS[1])
if v == nil then
	return 0
end
if v == ARGV[1] then
	return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return -1`)

func Extend(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) (int64, error) {
	return extend.Run(ctx, rdb, []string{key}, token, ttl.Milliseconds()).Int64()
}

func ExtendNil(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) (int64, error) {
	return extendNil.Run(ctx, rdb, []string{key}, token, ttl.Milliseconds()).Int64()
}
