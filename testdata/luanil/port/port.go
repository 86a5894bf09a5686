// Package port runs its scripts through an interface of its own, in
// go-redis's words but with plain results, and imports no client: the
// model reads its Eval as EVAL.
package port

import (
	"context"
	"time"
)

// Store is the port.
type Store interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error)
	Del(ctx context.Context, keys ...string) error
	Eval(ctx context.Context, script string, keys []string, args ...any) (any, error)
}

const refreshLua = `if redis.call("GET", KEYS[1]) ~= ARGV[1] then return 0 end return redis.call("PEXPIRE", KEYS[1], ARGV[2])`

// A renewal that reports a free key as someone else's: the nil branch
// never runs.
const renewLua = `local v = redis.call("GET", KEYS[1]) if v == nil then return -1 end if v ~= ARGV[1] then return 0 end return redis.call("PEXPIRE", KEYS[1], ARGV[2])` // want "Lua line 1: GET reply == nil never holds"

func Renew(ctx context.Context, s Store, key, owner string) (any, error) {
	return s.Eval(ctx, renewLua, []string{key}, owner, 30000)
}

// Near miss: the owner check alone.
func Refresh(ctx context.Context, s Store, key, owner string) (any, error) {
	return s.Eval(ctx, refreshLua, []string{key}, owner, 30000)
}
