// Package race pins the held-out miss of acquires through a wrapper
// interface whose every error is only logged before the section
// (test-redislock-racecondition's Locker1 and Locker2): a worker that
// lost the race works beside the holder. The near misses return.
package race

import (
	"context"
	"log"
	"time"

	"github.com/bsm/redislock"

	"locklint.test/uncheckedacquire/regressions/loggedwrapper/lock"
)

func work() { time.Sleep(310 * time.Millisecond) }

// Must report: the error is logged and the section runs anyway.
func Locker1(ctx context.Context, l lock.IRedisLock) {
	backoff := redislock.LimitRetry(redislock.LinearBackoff(100*time.Millisecond), 50)
	locker, err := l.TryLock(ctx, "test-locker", time.Minute, &redislock.Options{RetryStrategy: backoff}) // want "`l\\.TryLock`.s not-obtained error is only logged"
	if err != nil {
		log.Println("failed to lock")
	}
	work()
	_ = l.Unlock(ctx, locker)
}

// Near miss (silent): a failed acquire returns before the section.
func Locker2(ctx context.Context, l lock.IRedisLock) {
	backoff := redislock.LimitRetry(redislock.LinearBackoff(100*time.Millisecond), 50)
	locker, err := l.TryLock(ctx, "test-locker", time.Minute, &redislock.Options{RetryStrategy: backoff})
	if err != nil {
		log.Println("failed to lock")
		return
	}
	work()
	_ = l.Unlock(ctx, locker)
}
