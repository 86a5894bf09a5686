// Package exportedowner pins an exported acquire whose owner is a
// parameter: other packages may pass fresh tokens, but a call in this
// package that passes a constant acquires with it. A call that passes a
// fresh token says nothing of the others, and neither do tests.
package exportedowner

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/redis/go-redis/v9"
)

type Locker struct{ rdb *redis.Client }

// TryLock counts its attempts, so it is no forwarder of SETNX.
func (l *Locker) TryLock(ctx context.Context, name, owner string) bool {
	l.rdb.Incr(ctx, "locks:attempts")
	return l.rdb.SetNX(ctx, "lock:"+name, owner, time.Minute).Val() // want "acquired with a non-unique token \\(parameter `owner`, given the constant `\"cron\"`\\)"
}

func (l *Locker) Unlock(ctx context.Context, name, owner string) {
	l.rdb.Eval(ctx, `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`, []string{"lock:" + name}, owner)
}

func nightly(ctx context.Context, l *Locker) {
	tok := rand.Text()
	if l.TryLock(ctx, "reindex", tok) {
		defer l.Unlock(ctx, "reindex", tok)
	}
	if l.TryLock(ctx, "compact", "cron") {
		defer l.Unlock(ctx, "compact", "cron")
	}
}

// Only fresh tokens reach this one from here.
func (l *Locker) Acquire(ctx context.Context, name, owner string) bool {
	l.rdb.Incr(ctx, "locks:acquires")
	return l.rdb.SetNX(ctx, "lock:"+name, owner, time.Minute).Val()
}

func hourly(ctx context.Context, l *Locker) {
	l.Acquire(ctx, "rollup", rand.Text())
}
