package timeout

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// The work's timeout: the release after an overrun finds it expired.
func job(rdb *redis.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if !rdb.SetNX(ctx, "lock:job", "tok", time.Minute).Val() {
		return
	}
	defer rdb.Del(ctx, "lock:job") // want "deferred DEL: `ctx` expires with the work's timeout \\(line 12\\)"
	work(ctx)
}

// A deadline, from a parameter.
func withDeadline(parent context.Context, rdb *redis.Client, at time.Time) {
	ctx, cancel := context.WithDeadline(parent, at)
	defer cancel()
	if !rdb.SetNX(ctx, "lock:job", "tok", time.Minute).Val() {
		return
	}
	defer func() {
		rdb.Del(ctx, "lock:job") // want "deferred DEL: `ctx` expires with the work's timeout \\(line 23\\)"
	}()
	work(ctx)
}

// Near miss: a timeout made for the release alone, from a context that
// is not cancelled.
func ownTimeout(ctx context.Context, rdb *redis.Client) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	defer rdb.Del(rctx, "lock:job")
	work(ctx)
}

// Near miss: the timeout made in the deferred function.
func inDefer(ctx context.Context, rdb *redis.Client) {
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		rdb.Del(rctx, "lock:job")
	}()
	work(ctx)
}

func work(ctx context.Context) {}
