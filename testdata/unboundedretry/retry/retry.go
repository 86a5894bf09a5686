// Package retry calls the locker package's wrappers in retry loops.
package retry

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/redis/go-redis/v9"

	"locklint.test/unboundedretry/locker"
)

// A method from another package, retried forever.
func waitForLock(ctx context.Context, l *locker.Locker, id, token string) {
	for { // want `lock acquisition retried with no bound, at a constant interval`
		if l.TryLock(ctx, id, token) {
			break
		}
		time.Sleep(time.Second)
	}
}

// Near miss: the same wrapper, bounded by the context.
func waitForLockCtx(ctx context.Context, l *locker.Locker, id, token string) error { // want waitForLockCtx:`acquires lock via \(\*locklint.test/unboundedretry/locker.Locker\).TryLock`
	for !l.TryLock(ctx, id, token) {
		if err := ctx.Err(); err != nil {
			return err
		}
		time.Sleep(time.Duration(rand.IntN(1000)) * time.Millisecond)
	}
	return nil
}

// The error-returning wrapper: only ErrBusy or success end the loop.
func lockJob(ctx context.Context, l *locker.Locker, id, token string) error { // want lockJob:`acquires lock via \(\*locklint.test/unboundedretry/locker.Locker\).Lock`
	for { // want `lock acquisition retried with no bound, at a constant interval`
		err := l.Lock(ctx, id, token)
		if err == nil {
			return nil
		}
		if !errors.Is(err, locker.ErrBusy) {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Near miss: context.DeadlineExceeded ends it.
func lockJobDeadline(ctx context.Context, l *locker.Locker, id, token string) error { // want lockJobDeadline:`acquires lock via \(\*locklint.test/unboundedretry/locker.Locker\).Lock`
	for {
		err := l.Lock(ctx, id, token)
		if err == nil || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// A package function from another package.
func acquire(ctx context.Context, rdb *redis.Client, id, token string) {
	for { // want `lock acquisition retried with no bound`
		ok, err := locker.Acquire(ctx, rdb, id, token, 10*time.Second)
		if err == nil && ok {
			return
		}
	}
}

// A generic function from another package, instantiated here.
func acquireGeneric(ctx context.Context, rdb *redis.ClusterClient, id, token string) {
	for !locker.TryLockWith(ctx, rdb, id, token) { // want "lock acquisition retried with no bound, at a constant interval; add a bound and jitter, or use `fix\\.WithMaxWait`$"
		time.Sleep(10 * time.Millisecond)
	}
}

// A method of a generic type from another package.
func claim(ctx context.Context, p *locker.Pool[string], id string) {
	for p.Claim(ctx, id) != nil { // want `lock acquisition retried with no bound`
	}
}

// Near miss: a wrapper without a success result carries no fact.
func runAll(ctx context.Context, l *locker.Locker, ids []string, token string) {
	for i := 0; ; i++ {
		l.LockAndRun(ctx, ids[i%len(ids)], token, func() {})
		if l.Held(ctx, ids[i%len(ids)]) {
			return
		}
	}
}

// A local wrapper around the other package's wrapper.
func tryBoth(ctx context.Context, l *locker.Locker, a, b, token string) bool { // want tryBoth:`acquires lock via \(\*locklint.test/unboundedretry/locker.Locker\).TryLock`
	return l.TryLock(ctx, a, token) && l.TryLock(ctx, b, token)
}

func waitBoth(ctx context.Context, l *locker.Locker, a, b, token string) {
	for !tryBoth(ctx, l, a, b, token) { // want `lock acquisition retried with no bound`
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
	}
}
