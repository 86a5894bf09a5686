// Package parsedexpiry pins the old "expiry in the value" lock: the
// holder stores its expiry second with SETNX, and its release reads the
// key, parses the value with strconv.ParseInt and deletes the key only
// when the number is its own: an owner check in Go, then a DEL, two round
// trips. The near misses parse a counter and compare it with a constant,
// a state rather than an owner, before deleting it.
package parsedexpiry

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

func Acquire(ctx context.Context, rdb *redis.Client, key string) (bool, int64) {
	expire := time.Now().Unix() + 10
	ok, _ := rdb.SetNX(ctx, key, expire, 10*time.Second).Result()
	return ok, expire
}

func Release(ctx context.Context, rdb *redis.Client, key string, expire int64) {
	cur, err := rdb.Get(ctx, key).Result()
	if errors.Is(err, redis.Nil) || err != nil {
		return
	}
	n, _ := strconv.ParseInt(cur, 10, 64)
	if n == expire {
		rdb.Del(ctx, key) // want "GET on line \\d+ and this DEL of lock key `key` \\(key of `Release`\\) are two round trips"
	}
}

func ResetRetries(ctx context.Context, rdb *redis.Client, job string) {
	cur, err := rdb.Get(ctx, "retries:"+job).Result()
	if err != nil {
		return
	}
	if n, _ := strconv.Atoi(cur); n == 0 {
		rdb.Del(ctx, "retries:"+job)
	}
}
