// Package utils is a service's own lock helper: Acquire takes the key
// with SETNX and the caller's value, and returns ErrLockNotAcquired when
// another holds it; Release compares that value. Nothing here is a
// finding: the value comes from the caller.
package utils

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrLockNotAcquired = errors.New("lock not acquired")

type RedisLock struct {
	client *redis.Client
}

func NewRedisLock(client *redis.Client) *RedisLock { return &RedisLock{client: client} }

func (l *RedisLock) Acquire(ctx context.Context, key, value string, ttl time.Duration) error {
	ok, err := l.client.SetNX(ctx, key, value, ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrLockNotAcquired
	}
	return nil
}

const releaseLua = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func (l *RedisLock) Release(ctx context.Context, key, value string) error {
	return l.client.Eval(ctx, releaseLua, []string{key}, value).Err()
}
