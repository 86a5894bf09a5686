package cancelfirst

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// The cancel deferred after the release runs before it.
func job(rdb *redis.Client) {
	ctx, cancel := context.WithCancel(context.Background())
	defer rdb.Del(ctx, "lock:job") // want "deferred DEL: `ctx` is cancelled first by the defer on line 14"
	defer cancel()
	work(ctx)
}

// Near miss: the cancel deferred first runs last.
func ordered(rdb *redis.Client) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if !rdb.SetNX(ctx, "lock:job", "tok", time.Minute).Val() {
		return
	}
	defer rdb.Del(ctx, "lock:job")
	work(ctx)
}

// Near miss: not deferred, and the deferred cancel has not run yet.
func straightLine(rdb *redis.Client) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if !rdb.SetNX(ctx, "lock:job", "tok", time.Minute).Val() {
		return
	}
	work(ctx)
	rdb.Del(ctx, "lock:job")
}

func work(ctx context.Context) {}
