// Package lock wraps bsm/redislock behind an interface of its own and
// rewrites the library's not-obtained error with fmt.Errorf
// (test-redislock-racecondition's pkg/lock). Nothing here is a finding.
package lock

import (
	"context"
	"fmt"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

type IRedisLock interface {
	TryLock(ctx context.Context, key string, ttl time.Duration, opt *redislock.Options) (*redislock.Lock, error)
	Unlock(ctx context.Context, lock *redislock.Lock) error
}

type RedisLock struct {
	handler *redislock.Client
	client  *redis.Client
}

func NewRedisLock(client *redis.Client, handler *redislock.Client) IRedisLock {
	return &RedisLock{client: client, handler: handler}
}

func (r RedisLock) TryLock(ctx context.Context, key string, ttl time.Duration, opt *redislock.Options) (*redislock.Lock, error) {
	lock, err := r.handler.Obtain(ctx, key, ttl, opt)
	if err == redislock.ErrNotObtained {
		return lock, fmt.Errorf("could not obtain lock for key %s", key)
	} else if err != nil {
		return lock, err
	}
	return lock, nil
}

func (r RedisLock) Unlock(ctx context.Context, lock *redislock.Lock) error {
	return lock.Release(ctx)
}
