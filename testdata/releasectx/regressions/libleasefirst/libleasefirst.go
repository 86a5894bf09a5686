// Package libleasefirst pins a handler that makes its own 10 s timeout
// for the work and takes a bsm/redislock lock of one second inside it,
// releasing it with a deferred Release under that timeout: when the
// timeout cuts the release short, the lock it leaves lapses within its
// second. The twin's lease (a minute) outlasts its timeout, and a release
// the timeout cuts short leaves the lock for the rest of that minute.
package libleasefirst

import (
	"context"
	"fmt"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

type Handler struct {
	rdb    *redis.Client
	locker *redislock.Client
}

func (h *Handler) MarkComplete(task string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	lock, err := h.locker.Obtain(ctx, fmt.Sprintf("lock-%s", task), time.Second, &redislock.Options{
		RetryStrategy: redislock.LinearBackoff(5 * time.Millisecond),
	})
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return h.rdb.SAdd(ctx, task+"_done", "x").Err()
}

func (h *Handler) Rebuild(task string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	lock, err := h.locker.Obtain(ctx, "lock-rebuild-"+task, time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx) // want "deferred `lock.Release`: `ctx` expires with the work's timeout \\(line 37\\)"
	return h.rdb.SAdd(ctx, task+"_rebuilt", "x").Err()
}
