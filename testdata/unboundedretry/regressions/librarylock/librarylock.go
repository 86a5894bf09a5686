// Package librarylock pins a loop around another lock library's acquire:
// redsync's Mutex.Lock and bsm/redislock's Obtain each try a bounded
// number of times and then report failure, so a loop that only their
// success ends retries for good while Redis is down or the lock is
// held: reported. The near misses bound the loop with a count and with
// the context LockContext is given.
package librarylock

import (
	"context"
	"errors"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
)

func refillCache(mtx *redsync.Mutex, load func() error) error {
	for { // want "lock acquisition retried with no bound"
		err := mtx.Lock()
		if err == nil {
			break
		}
	}
	defer mtx.Unlock()
	return load()
}

func obtainForever(ctx context.Context, rdb *redis.Client) (*redislock.Lock, error) {
	for { // want "lock acquisition retried with no bound"
		l, err := redislock.Obtain(ctx, rdb, "lock:report", time.Minute, nil)
		if err == nil {
			return l, nil
		}
		if !errors.Is(err, redislock.ErrNotObtained) {
			return nil, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Near miss: three attempts, then give up.
func refillCounted(mtx *redsync.Mutex, load func() error) error {
	for i := 0; i < 3; i++ {
		if err := mtx.Lock(); err == nil {
			defer mtx.Unlock()
			return load()
		}
	}
	return errors.New("busy")
}

// Near miss: LockContext ends with the context's deadline.
func refillUntil(parent context.Context, mtx *redsync.Mutex, load func() error) error {
	ctx, cancel := context.WithTimeout(parent, 5*time.Second)
	defer cancel()
	for {
		err := mtx.LockContext(ctx)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	defer mtx.Unlock()
	return load()
}
