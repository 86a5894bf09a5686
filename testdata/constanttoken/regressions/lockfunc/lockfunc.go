// Package lockfunc pins constant tokens stored by functions that are
// locks by their name, not by their key's.
package lockfunc

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Locker struct{ rdb *redis.Client }

func (l *Locker) TryLock(ctx context.Context, key string, ttl time.Duration) bool {
	return l.rdb.SetNX(ctx, key, "1", ttl).Val() // want "lock key `key` \\(key of `\\(\\*Locker\\)\\.TryLock`\\) acquired with a non-unique token \\(the constant `\"1\"`\\)"
}

// Unlock checks the owner with the value every holder stores.
func (l *Locker) Unlock(ctx context.Context, key string) {
	l.rdb.Eval(ctx, unlock, []string{key}, "1")
}

// Near miss: an idempotency marker, taken once and never released or
// compared; its value is never an owner token.
func MarkProcessed(ctx context.Context, rdb *redis.Client, key string) bool {
	return rdb.SetNX(ctx, key, "1", 24*time.Hour).Val()
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`
