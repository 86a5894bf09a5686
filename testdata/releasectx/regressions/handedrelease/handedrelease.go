// Package handedrelease pins a release handed back to the caller under a
// context the lock function has already cancelled: Acquire bounds its
// wait with WithTimeout and a deferred cancel, and returns the release
// that the attempt made, a closure over that same context. Every call of
// it comes after the cancel, so the client fails the script without
// sending it and the lock stays for its TTL. The near misses hand out a
// release under the caller's context, one of their own, or one the
// function does not cancel.
package handedrelease

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

type Locker struct {
	rdb *redis.Client
	ttl time.Duration
}

type lock struct {
	rdb   *redis.Client
	key   string
	value string
	ttl   time.Duration
}

// Must report: the release comes from tryAcquire, through acquire, under
// the context this function cancels on return.
func (r *Locker) Acquire(ctx context.Context, key string) (bool, func() bool) {
	l := &lock{rdb: r.rdb, key: key, value: uuid.NewString(), ttl: r.ttl}
	cctx, cancel := context.WithTimeout(ctx, r.ttl)
	defer cancel()
	return l.acquire(cctx) // want "the release `l\\.acquire` hands back runs under `cctx`, cancelled when `Acquire` returns \\(line 39\\), so the lock stays until its TTL"
}

// Silent: the caller's own context.
func (r *Locker) TryAcquire(ctx context.Context, key string) (bool, func() bool) { // want TryAcquire:"hands back a release bound to parameter 0"
	l := &lock{rdb: r.rdb, key: key, value: uuid.NewString(), ttl: r.ttl}
	return l.tryAcquire(ctx)
}

func (l *lock) acquire(ctx context.Context) (bool, func() bool) {
	for i := 0; i < 10; i++ {
		ok, release := l.tryAcquire(ctx)
		if ok {
			return true, release
		}
		select {
		case <-ctx.Done():
			return false, func() bool { return false }
		case <-time.After(50 * time.Millisecond):
		}
	}
	return false, func() bool { return false }
}

func (l *lock) tryAcquire(ctx context.Context) (bool, func() bool) {
	ok, err := l.rdb.SetNX(ctx, l.key, l.value, l.ttl).Result()
	if err != nil || !ok {
		return false, func() bool { return false }
	}
	return true, func() bool { return l.unlock(ctx) }
}

func (l *lock) unlock(ctx context.Context) bool { // want unlock:"releases under parameter 0"
	n, err := unlockScript.Run(ctx, l.rdb, []string{l.key}, l.value).Int()
	return err == nil && n == 1
}

// Must report: the release is written here, over the timeout context
// the acquire ran under.
func Lock(ctx context.Context, rdb *redis.Client, key string) (func(), error) { // want Lock:"hands back a release bound to parameter 0"
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	token := uuid.NewString()
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("lock held")
	}
	release := func() {
		unlockScript.Run(ctx, rdb, []string{key}, token) // want "EVAL in the returned release runs under `ctx`, cancelled when `Lock` returns \\(line 81\\)"
	}
	return release, nil
}

// Silent: the release makes its own context, free of the wait's.
func LockOwn(ctx context.Context, rdb *redis.Client, key string) (func(), error) {
	wctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	token := uuid.NewString()
	ok, err := rdb.SetNX(wctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return nil, errors.Join(err, errors.New("lock held"))
	}
	return func() {
		rctx, stop := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer stop()
		unlockScript.Run(rctx, rdb, []string{key}, token)
	}, nil
}

// Silent: the timeout bounds the acquire only; the release runs under
// the caller's context.
func LockParent(ctx context.Context, rdb *redis.Client, key string) (func(), error) { // want LockParent:"hands back a release bound to parameter 0"
	wctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	token := uuid.NewString()
	ok, err := rdb.SetNX(wctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return nil, errors.Join(err, errors.New("lock held"))
	}
	return func() { unlockScript.Run(ctx, rdb, []string{key}, token) }, nil
}

// Silent: the context is cancelled by the release itself, after it has
// run, not on return.
func LockCancelAfter(ctx context.Context, rdb *redis.Client, key string) (func(), error) {
	wctx, cancel := context.WithTimeout(ctx, time.Hour)
	token := uuid.NewString()
	ok, err := rdb.SetNX(wctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		cancel()
		return nil, errors.Join(err, errors.New("lock held"))
	}
	return func() {
		unlockScript.Run(wctx, rdb, []string{key}, token)
		cancel()
	}, nil
}
