// Package sentinelonly pins an IoT platform core's guarded run: the
// acquire's error is compared with ErrNotObtained alone, so a network
// error falls through into the release of a nil lock and the guarded
// logic, which runs without the lock. Handing the sentinel on from the
// miss branch (return err) tests nothing else. The near misses return on
// every error: at once, or after the miss.
package sentinelonly

import (
	"context"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

type RedisManager struct {
	Client    *redis.Client
	RedisLock *redislock.Client
}

type Microservice struct {
	FunctionalArea string
	Redis          *RedisManager
}

func (ms *Microservice) WithDistributedLock(ctx context.Context, duration time.Duration, retries int,
	logic func(ctx context.Context) error) error {
	lock, err := ms.Redis.RedisLock.Obtain(ctx, ms.FunctionalArea, duration, &redislock.Options{ // want "only `ms.Redis.RedisLock.Obtain`'s not-obtained error is checked: any other error runs the code after it without the lock; return on every error$"
		RetryStrategy: redislock.LimitRetry(redislock.LinearBackoff(duration), retries),
	})
	if err == redislock.ErrNotObtained {
		return err
	}
	defer lock.Release(ctx)
	return logic(ctx)
}

func (ms *Microservice) WithLockChecked(ctx context.Context, duration time.Duration,
	logic func(ctx context.Context) error) error {
	lock, err := ms.Redis.RedisLock.Obtain(ctx, ms.FunctionalArea, duration, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return logic(ctx)
}

func (ms *Microservice) WithLockBoth(ctx context.Context, duration time.Duration,
	logic func(ctx context.Context) error) error {
	lock, err := ms.Redis.RedisLock.Obtain(ctx, ms.FunctionalArea, duration, nil)
	if err == redislock.ErrNotObtained {
		return err
	}
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return logic(ctx)
}
