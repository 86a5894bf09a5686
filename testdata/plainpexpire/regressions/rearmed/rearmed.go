// Package rearmed pins a job's processing marker that is kept, not given
// back: AcquireLock takes "sentinel:lock:<job>" with SET NX and a TTL,
// and ReleaseLock, once the result is stored, sets the same TTL again so
// that redeliveries of the job find the marker for ten more minutes.
// Nothing deletes the key. That EXPIRE ends the holding; it renews no
// lease a holder still works under: silent. The near misses are a lock
// type's Refresh, which renews a lease whoever calls it, and a release
// EXPIRE beside a DEL of the same key: both reported. An idempotency
// middleware's deferred EXPIRE of the key it took is the same re-arm;
// deferred beside a DEL of the key, or of a key the function did not
// take, it is a renewal again.
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

// Silent: an idempotency middleware takes the request's key with SET NX
// and, on the way out, sets its TTL again so that the record outlives a
// panicking handler; nothing deletes the key.
func Idempotent(rdb *redis.Client, next func(context.Context)) func(context.Context, string) error {
	return func(ctx context.Context, header string) error {
		key := "idem:lock:" + header
		ok, err := rdb.SetNX(ctx, key, "locked", lockTTL).Result()
		if err != nil || !ok {
			return err
		}
		defer func() {
			_ = rdb.Expire(context.Background(), key, lockTTL).Err()
		}()
		next(ctx)
		return nil
	}
}

// Must report: the same deferred EXPIRE, but the package also deletes the
// key, so it is a lock given back, and the EXPIRE extends whoever holds
// it by then.
func Exclusive(ctx context.Context, rdb *redis.Client, order string, work func()) error {
	key := "order:lock:" + order
	ok, err := rdb.SetNX(ctx, key, "locked", lockTTL).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Expire(context.Background(), key, lockTTL) // want "EXPIRE of lock key `key` without an owner check"
	work()
	return nil
}

func CancelOrder(ctx context.Context, rdb *redis.Client, order string) error {
	return rdb.Del(ctx, "order:lock:"+order).Err()
}

// Must report: a deferred EXPIRE of a key the function did not take
// itself renews a lease for whoever holds it.
func Touch(ctx context.Context, rdb *redis.Client, job string) {
	defer rdb.Expire(ctx, taskPrefix+job, time.Minute) // want "EXPIRE of lock key `taskPrefix \\+ job` without an owner check"
}
