// Package incracquire pins INCR used as an acquire: the caller that makes
// the counter 1 holds the lock, and a separate EXPIRE leaves the same
// crash window as SETNX then EXPIRE.
package incracquire

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func tryLock(ctx context.Context, rdb *redis.Client, job string) bool {
	key := "lock:job:" + job
	n, err := rdb.Incr(ctx, key).Result() // want `INCR and the EXPIRE on line 19 are separate commands`
	if err != nil || n != 1 {
		return false
	}
	rdb.Expire(ctx, key, 30*time.Second)
	return true
}

// Near miss: a rate-limit window, the same shape on a counter.
func allow(ctx context.Context, rdb *redis.Client, ip string, limit int64) bool {
	key := "ratelimit:" + ip
	n, err := rdb.Incr(ctx, key).Result()
	if err != nil {
		return false
	}
	if n == 1 {
		rdb.Expire(ctx, key, time.Minute)
	}
	return n <= limit
}
