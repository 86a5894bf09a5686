// Package locker is a small lock wrapper of the kind services keep in an
// internal package; its callers retry it.
package locker

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrBusy = errors.New("locker: busy")

type Locker struct {
	rdb *redis.Client
	ttl time.Duration
}

func New(rdb *redis.Client) *Locker { return &Locker{rdb: rdb, ttl: 10 * time.Second} }

func key(id string) string { return "lock:" + id }

// TryLock makes one attempt.
func (l *Locker) TryLock(ctx context.Context, id, token string) bool { // want TryLock:"acquires lock via SET NX"
	return l.rdb.SetNX(ctx, key(id), token, l.ttl).Val()
}

// Lock reports contention as an error, through TryLock.
func (l *Locker) Lock(ctx context.Context, id, token string) error { // want Lock:`acquires lock via \(\*locklint.test/unboundedretry/locker.Locker\).TryLock`
	if !l.TryLock(ctx, id, token) {
		return ErrBusy
	}
	return nil
}

// Acquire is a package-level helper over any client.
func Acquire(ctx context.Context, c redis.Cmdable, id, token string, ttl time.Duration) (bool, error) { // want Acquire:"acquires lock via SET NX"
	return c.SetNX(ctx, key(id), token, ttl).Result()
}

// TryLockWith is generic over the client.
func TryLockWith[C redis.Cmdable](ctx context.Context, c C, id, token string) bool { // want TryLockWith:"acquires lock via SET NX"
	return c.SetNX(ctx, key(id), token, 10*time.Second).Val()
}

// Pool is a generic type whose method acquires.
type Pool[T any] struct {
	rdb  *redis.Client
	item T
}

func (p *Pool[T]) Claim(ctx context.Context, id string) error { // want Claim:"acquires lock via SET NX"
	return p.rdb.SetArgs(ctx, key(id), "1", redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err()
}

// Near miss: no result to report success with, so no fact.
func (l *Locker) LockAndRun(ctx context.Context, id, token string, fn func()) {
	if l.TryLock(ctx, id, token) {
		fn()
	}
}

// Near miss: reads the lock, does not take it.
func (l *Locker) Held(ctx context.Context, id string) bool {
	return l.rdb.Exists(ctx, key(id)).Val() == 1
}
