// Package callers bounds its loops with the helpers of package policy,
// whose bounds reach it as facts.
package callers

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"locklint.test/loopbound/policy"
)

func tryLock(ctx context.Context, rdb *redis.Client, token string) bool { // want tryLock:"acquires lock via SET NX"
	return rdb.SetNX(ctx, "lock:callers", token, time.Minute).Val()
}

func window(ctx context.Context, rdb *redis.Client, token string) bool { // want window:"acquires lock via"
	w := policy.NewWindow(time.Second)
	for !tryLock(ctx, rdb, token) { // want "bounded by clock"
		if w.Over() {
			return false
		}
	}
	return true
}

// windowInLoop opens a new window every iteration: never over.
func windowInLoop(ctx context.Context, rdb *redis.Client, token string) bool { // want windowInLoop:"acquires lock via"
	for !tryLock(ctx, rdb, token) { // want "unbounded"
		w := policy.NewWindow(time.Second)
		if w.Over() {
			return false
		}
	}
	return true
}

func allow(ctx context.Context, rdb *redis.Client, token string) bool { // want allow:"acquires lock via"
	for i := 0; ; i++ { // want "bounded by attempts"
		if tryLock(ctx, rdb, token) {
			return true
		}
		if !policy.Allow(i, 5) {
			return false
		}
	}
}

func always(ctx context.Context, rdb *redis.Client, token string) bool { // want always:"acquires lock via"
	for i := 0; ; i++ { // want "unbounded"
		if tryLock(ctx, rdb, token) {
			return true
		}
		if !policy.Always(i) {
			return false
		}
	}
}
