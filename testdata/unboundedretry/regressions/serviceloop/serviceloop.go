// Package serviceloop pins a task queue's scheduler: each pass takes the
// scheduler's lock through a helper over bsm/redislock, moves due tasks
// while holding it, and goes round again until the queue closes; a busy
// lock or an empty pass sleeps a randomised backoff first. It is a
// periodic job that tries the lock on every pass, not a wait for one
// lock. The twin waits for the lock and leaves once it has it.
package serviceloop

import (
	"context"
	"log"
	"math/rand"
	"sync/atomic"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

type Queue struct {
	_closed uint32
	rdb     *redis.Client
}

func (q *Queue) closed() bool { return atomic.LoadUint32(&q._closed) == 1 }

func (q *Queue) withRedisLock(ctx context.Context, name string, fn func(ctx context.Context) error) error {
	lock, err := redislock.Obtain(ctx, q.rdb, name, time.Minute, nil)
	if err != nil {
		return err
	}
	defer func() {
		if err := lock.Release(ctx); err != nil {
			log.Printf("release: %v", err)
		}
	}()
	return fn(ctx)
}

func backoff() time.Duration { return time.Duration(rand.Intn(500)+1000) * time.Millisecond }

// Near miss (silent): a scheduler that runs until the queue closes.
func (q *Queue) scheduler(name string, fn func(ctx context.Context) (int, error)) {
	for {
		if q.closed() {
			break
		}
		ctx := context.TODO()
		var n int
		err := q.withRedisLock(ctx, "scheduler:lock:"+name, func(ctx context.Context) error {
			var err error
			n, err = fn(ctx)
			return err
		})
		if err != nil && err != redislock.ErrNotObtained {
			log.Printf("%s failed: %s", name, err)
		}
		if err != nil || n == 0 {
			time.Sleep(backoff())
		}
	}
}

// Must report: waits for the lock as long as it is held.
func (q *Queue) waitOnce(name string, fn func(ctx context.Context) error) {
	for { // want "retried with no bound"
		err := q.withRedisLock(context.TODO(), "once:lock:"+name, fn)
		if err == nil {
			return
		}
		time.Sleep(backoff())
	}
}
