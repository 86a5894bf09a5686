// Package loadedscripts pins two acquires in Lua that were not seen as
// acquires: a script that reads the key and sets it when the read found
// nothing (or the caller's own value: re-entrant by value), and a script
// loaded with ScriptLoad and run with EvalSha by the SHA kept in a field.
// With a constant owner both let every caller in. A script that sets the
// key only when it holds the caller's value renews; it takes nothing.
package loadedscripts

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const takeOrRetake = `
local holder = redis.call('GET', KEYS[1])
if not holder or holder == ARGV[1] then
  return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return false`

const setIfFree = `return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`

const extend = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return false`

type locker struct {
	rdb     *redis.Client
	takeSHA string
	extSHA  string
}

func newLocker(ctx context.Context, rdb *redis.Client) *locker {
	take := rdb.ScriptLoad(ctx, setIfFree).Val()
	ext, _ := rdb.ScriptLoad(ctx, extend).Result()
	return &locker{rdb: rdb, takeSHA: take, extSHA: ext}
}

func retake(ctx context.Context, rdb *redis.Client) error {
	return rdb.Eval(ctx, takeOrRetake, []string{"lock:reports"}, "worker", 30000).Err() // want "lock key `\"lock:reports\"` acquired with a non-unique token \\(the constant `\"worker\"`\\)"
}

func (l *locker) take(ctx context.Context) error {
	return l.rdb.EvalSha(ctx, l.takeSHA, []string{"lock:billing"}, "node", time.Minute.Milliseconds()).Err() // want "lock key `\"lock:billing\"` acquired with a non-unique token \\(the constant `\"node\"`\\)"
}

func (l *locker) keep(ctx context.Context) error {
	return l.rdb.EvalSha(ctx, l.extSHA, []string{"lock:billing"}, "node", time.Minute.Milliseconds()).Err()
}
