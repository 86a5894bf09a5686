// Package pollerexits pins an AI gateway's task poller: each tick takes
// "poll:lock:<task>" with SETNX of "1" for 120 s, deletes it with a plain
// DEL on the exits taken before any work starts, and otherwise polls the
// upstream in a goroutine that defers the same plain DEL. The lock has
// one defect, the release after the slow poll, which deletes the next
// poller's lock once the lease lapsed: reported there (the goroutine's
// parameter holds the loop's key). The exits run only guard clauses
// after the take, which a 120 s lease cannot lapse across: silent.
package pollerexits

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type task struct {
	ID      int64
	Created time.Time
}

type channel struct{ URL string }

var rdb *redis.Client

const pollLockTTL = 120 * time.Second

func getChannel(context.Context, int64) (*channel, error) { return nil, errors.New("none") }
func pollOne(context.Context, *task, *channel)            {}
func fail(context.Context, *task)                         {}

func pollPending(ctx context.Context, tasks []task) {
	for i := range tasks {
		t := &tasks[i]
		lockKey := fmt.Sprintf("poll:lock:%d", t.ID)
		ok, err := rdb.SetNX(ctx, lockKey, "1", pollLockTTL).Result()
		if err != nil || !ok {
			continue
		}
		if time.Since(t.Created) > 2*time.Hour {
			rdb.Del(ctx, lockKey)
			fail(ctx, t)
			continue
		}
		ch, err := getChannel(ctx, t.ID)
		if err != nil {
			rdb.Del(ctx, lockKey)
			continue
		}
		if ch.URL == "" {
			rdb.Del(ctx, lockKey)
			continue
		}
		go func(t *task, c *channel, lk string) {
			defer rdb.Del(ctx, lk) // want "DEL of lock key"
			pollOne(ctx, t, c)
		}(t, ch, lockKey)
	}
}

// Must report: the exit follows the slow poll, not the take, so the
// lease may have lapsed and the key be another poller's.
func pollLate(ctx context.Context, t *task) {
	lockKey := fmt.Sprintf("sync:lock:%d", t.ID)
	ok, err := rdb.SetNX(ctx, lockKey, "1", pollLockTTL).Result()
	if err != nil || !ok {
		return
	}
	ch, err := getChannel(ctx, t.ID)
	if err != nil {
		rdb.Del(ctx, lockKey)
		return
	}
	pollOne(ctx, t, ch)
	if ch.URL == "" {
		rdb.Del(ctx, lockKey) // want "DEL of lock key"
		return
	}
	defer rdb.Del(ctx, lockKey) // want "DEL of lock key"
	pollOne(ctx, t, ch)
}

// Must report: the exit's own body polls before it deletes.
func pollInExit(ctx context.Context, t *task) {
	lockKey := fmt.Sprintf("scan:lock:%d", t.ID)
	ok, err := rdb.SetNX(ctx, lockKey, "1", pollLockTTL).Result()
	if err != nil || !ok {
		return
	}
	if t.Created.IsZero() {
		pollOne(ctx, t, nil)
		rdb.Del(ctx, lockKey) // want "DEL of lock key"
		return
	}
	defer rdb.Del(ctx, lockKey) // want "DEL of lock key"
	pollOne(ctx, t, nil)
}
