// Package lock is a service's lock port with two Redis implementations,
// one over bsm/redislock and one over redsync, both releasing under the
// context they are given (morphix's pkg/lock): a call of Unlock through
// the port releases under its context, whichever implementation it is.
// Nothing here is a finding.
package lock

import (
	"context"
	"sync"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
)

type Locker interface {
	Lock(ctx context.Context, key string, ttl time.Duration) error
	Unlock(ctx context.Context, key string) error // want Unlock:"releases under parameter 0"
}

type RedisLocker struct {
	c     *redislock.Client
	mu    sync.Mutex
	locks map[string]*redislock.Lock
}

func NewLocker(cli *redis.Client) *RedisLocker {
	return &RedisLocker{c: redislock.New(cli), locks: map[string]*redislock.Lock{}}
}

func (r *RedisLocker) Lock(ctx context.Context, key string, ttl time.Duration) error {
	l, err := r.c.Obtain(ctx, key, ttl, &redislock.Options{RetryStrategy: redislock.LinearBackoff(500 * time.Millisecond)})
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.locks[key] = l
	r.mu.Unlock()
	return nil
}

func (r *RedisLocker) Unlock(ctx context.Context, key string) error { // want Unlock:"releases under parameter 0"
	r.mu.Lock()
	l := r.locks[key]
	delete(r.locks, key)
	r.mu.Unlock()
	if l == nil {
		return nil
	}
	return l.Release(ctx)
}

type RedisSync struct {
	rs *redsync.Redsync
	mu sync.Mutex
	m  map[string]*redsync.Mutex
}

func NewSync(cli *redis.Client) *RedisSync {
	return &RedisSync{rs: redsync.New(goredis.NewPool(cli)), m: map[string]*redsync.Mutex{}}
}

func (r *RedisSync) Lock(ctx context.Context, key string, ttl time.Duration) error {
	mu := r.rs.NewMutex(key, redsync.WithExpiry(ttl))
	if err := mu.LockContext(ctx); err != nil {
		return err
	}
	r.mu.Lock()
	r.m[key] = mu
	r.mu.Unlock()
	return nil
}

func (r *RedisSync) Unlock(ctx context.Context, key string) error { // want Unlock:"releases under parameter 0"
	r.mu.Lock()
	mu := r.m[key]
	delete(r.m, key)
	r.mu.Unlock()
	if mu == nil {
		return nil
	}
	_, err := mu.UnlockContext(ctx)
	return err
}

// Mixed has two implementations, one of which detaches its release from
// the caller's context: a call through it may be either, so nothing is
// assumed of it.
type Mixed interface {
	Unlock(ctx context.Context, key string) error
}

type detached struct{ l *redislock.Lock }

func (d detached) Unlock(ctx context.Context, key string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	return d.l.Release(ctx)
}

type plain struct{ l *redislock.Lock }

func (p plain) Unlock(ctx context.Context, key string) error { // want Unlock:"releases under parameter 0"
	return p.l.Release(ctx)
}
