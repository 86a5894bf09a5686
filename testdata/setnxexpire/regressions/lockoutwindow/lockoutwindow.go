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
