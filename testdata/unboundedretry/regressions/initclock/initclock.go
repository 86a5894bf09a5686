// Package initclock pins a clock bound set in the for statement's init:
// the init runs once, before the first iteration, so the instant it reads
// is fixed, and a fresh reading in the condition against it is a
// deadline. It was reported because the two readings looked like a
// deadline that moves with the clock, which is what a reading repeated
// in the post statement or the body is.
package initclock

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const maxWait = 5 * time.Second

func sinceStart(ctx context.Context, rdb *redis.Client, key, token string) bool {
	for start := time.Now(); time.Since(start) < maxWait; {
		if rdb.SetNX(ctx, key, token, time.Minute).Val() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

func beforeDeadline(ctx context.Context, rdb *redis.Client, key, token string) bool {
	for deadline := time.Now().Add(maxWait); time.Now().Before(deadline); {
		if rdb.SetNX(ctx, key, token, time.Minute).Val() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// restartedInPost reads the clock again after every attempt: the wait is
// measured from the last attempt and never runs out.
func restartedInPost(ctx context.Context, rdb *redis.Client, key, token string) bool {
	for start := time.Now(); time.Since(start) < maxWait; start = time.Now() { // want `lock acquisition retried with no bound`
		if rdb.SetNX(ctx, key, token, time.Minute).Val() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// movedInBody pushes the deadline on after each miss.
func movedInBody(ctx context.Context, rdb *redis.Client, key, token string) bool {
	for deadline := time.Now().Add(maxWait); time.Now().Before(deadline); { // want `lock acquisition retried with no bound`
		if rdb.SetNX(ctx, key, token, time.Minute).Val() {
			return true
		}
		deadline = time.Now().Add(maxWait)
		time.Sleep(50 * time.Millisecond)
	}
	return false
}
