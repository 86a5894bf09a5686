// Package jsonowner pins release and extend scripts of a lock stored as
// JSON (owner and fence): they decode the value with cjson.decode and
// compare its owner and fence with the arguments before DEL and PEXPIRE,
// an owner check. The twin decodes the value but compares only a
// constant state field before its DEL: no owner check.
package jsonowner

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`
local val = redis.call("GET", KEYS[1])
if val == false then
  return -1
end
local lock = cjson.decode(val)
if lock.owner == ARGV[1] and lock.fencing_token == tonumber(ARGV[2]) then
  redis.call("DEL", KEYS[1])
  return 1
end
return 0
`)

var extend = redis.NewScript(`
local val = redis.call("GET", KEYS[1])
if val == false then
  return -1
end
local lock = cjson.decode(val)
if ARGV[1] == lock.owner then
  redis.call("PEXPIRE", KEYS[1], ARGV[2])
  return 1
end
return 0
`)

var drop = redis.NewScript("local val = redis.call('GET', KEYS[1])\nif val == false then return -1 end\nlocal lock = cjson.decode(val)\nif lock.state == 'held' then\n  redis.call('DEL', KEYS[1])\n  return 1\nend\nreturn 0") // want "Lua line 5: DEL of KEYS\\[1\\] \\(lock key .*\\) with no owner check"

func Release(ctx context.Context, rdb *redis.Client, name, owner string, fence int64) error {
	return release.Run(ctx, rdb, []string{"lock:" + name}, owner, fence).Err()
}

func Extend(ctx context.Context, rdb *redis.Client, name, owner string, ttlMs int64) error {
	return extend.Run(ctx, rdb, []string{"lock:" + name}, owner, ttlMs).Err()
}

func Drop(ctx context.Context, rdb *redis.Client, name string) error {
	return drop.Run(ctx, rdb, []string{"lock:" + name}).Err()
}
