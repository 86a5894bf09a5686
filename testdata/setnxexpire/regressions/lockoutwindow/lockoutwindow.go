// Package lockoutwindow pins an INCR whose count of 1 only starts the
// key's TTL: a lockout or rate-limit window, whatever the key is called
// ("login:lock:" for an account lockout). Nothing is acquired, so the
// EXPIRE that follows is no acquire's TTL. The twin INCR decides who
// holds the key (n != 1 fails), and its separate EXPIRE is the SETNX
// crash window again.
package lockoutwindow

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func recordFailure(ctx context.Context, rdb *redis.Client, user string) {
	lockKey := "login:lock:" + user
	if n, err := rdb.Incr(ctx, lockKey).Result(); err == nil && n == 1 {
		rdb.Expire(ctx, lockKey, 15*time.Minute)
	}
}

func recordFailureAssigned(ctx context.Context, rdb *redis.Client, user string) {
	lockKey := "login:lock:" + user
	n := rdb.Incr(ctx, lockKey).Val()
	if n == 1 {
		_ = rdb.Expire(ctx, lockKey, 15*time.Minute).Err()
	}
}

func tryLock(ctx context.Context, rdb *redis.Client, job string) bool {
	lockKey := "login:lock:" + job
	n := rdb.Incr(ctx, lockKey).Val() // want `INCR and the EXPIRE on line 35 are separate commands`
	if n == 1 {
		rdb.Expire(ctx, lockKey, 15*time.Minute)
		return true
	}
	return false
}

// The count of 1 starts the window and the count is also held against a
// threshold, then handed back: a lockout counter, however many times it
// is read.
type tracker struct {
	rdb         *redis.Client
	maxFailures int
	window      time.Duration
	lockout     time.Duration
}

func (t *tracker) recordFailure(ctx context.Context, user string) (int, error) {
	lockKey := "login:lock:" + user
	count, err := t.rdb.Incr(ctx, lockKey).Result()
	if err != nil {
		return 0, err
	}
	if count == 1 {
		_ = t.rdb.Expire(ctx, lockKey, t.window)
	}
	if int(count) >= t.maxFailures {
		if err := t.rdb.Expire(ctx, lockKey, t.lockout).Err(); err != nil {
			return int(count), err
		}
	}
	return int(count), nil
}

// Must report: the count is held against 1 again (n > 1 is taken), which
// is the INCR lock whatever else reads the count.
func (t *tracker) tryLockCounted(ctx context.Context, job string) (int64, bool) {
	lockKey := "job:lock:" + job
	n, err := t.rdb.Incr(ctx, lockKey).Result() // want `INCR and the EXPIRE on line 77 are separate commands`
	if err != nil {
		return 0, false
	}
	if n == 1 {
		t.rdb.Expire(ctx, lockKey, t.window)
	}
	if n > 1 {
		return n, false
	}
	return n, true
}
