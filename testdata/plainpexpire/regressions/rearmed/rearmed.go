// Package rearmed pins a job's processing marker that is kept, not given
// back: AcquireLock takes "sentinel:lock:<job>" with SET NX and a TTL,
// and ReleaseLock, once the result is stored, sets the same TTL again so
// that redeliveries of the job find the marker for ten more minutes.
// Nothing deletes the key. That EXPIRE ends the holding; it renews no
// lease a holder still works under: silent. The near misses are a lock
// type's Refresh, which renews a lease whoever calls it, and a release
// EXPIRE beside a DEL of the same key: both reported.
package rearmed

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const (
	lockKeyPrefix = "sentinel:lock:"
	lockTTL       = 10 * time.Minute
)

type Store struct{ rdb *redis.Client }

func (s *Store) AcquireLock(ctx context.Context, job, owner string) (bool, error) {
	return s.rdb.SetNX(ctx, lockKeyPrefix+job, owner, lockTTL).Result()
}

func (s *Store) ReleaseLock(ctx context.Context, job string) error {
	return s.rdb.Expire(ctx, lockKeyPrefix+job, lockTTL).Err()
}

type Mutex struct {
	rdb   *redis.Client
	key   string
	token string
}

func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, m.token, time.Minute).Result()
}

func (m *Mutex) Refresh(ctx context.Context) error {
	return m.rdb.Expire(ctx, m.key, time.Minute).Err() // want "EXPIRE of lock key `m.key` without an owner check"
}

const taskPrefix = "task:lock:"

func Claim(ctx context.Context, rdb *redis.Client, task, owner string) (bool, error) {
	return rdb.SetNX(ctx, taskPrefix+task, owner, time.Minute).Result()
}

func Done(ctx context.Context, rdb *redis.Client, task string, failed bool) error {
	if failed {
		return rdb.Del(ctx, taskPrefix+task).Err()
	}
	return rdb.Expire(ctx, taskPrefix+task, time.Minute).Err() // want "EXPIRE of lock key `taskPrefix \\+ task` without an owner check"
}
