// Package armed gives the debug analyzer bounds set up before the loop:
// in the for statement's init, in the context the acquisition takes, and
// in a flag that a timer's goroutine sets.
package armed

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

const maxWait = time.Second

func sinceInit(ctx context.Context, rdb *redis.Client) bool {
	for start := time.Now(); time.Since(start) < maxWait; { // want "bounded by clock"
		if rdb.SetNX(ctx, "lock:armed", "t", time.Minute).Val() {
			return true
		}
	}
	return false
}

// timerInit makes the timer once, in the init: a deadline, not a pause.
func timerInit(ctx context.Context, rdb *redis.Client) bool {
	for t := time.NewTimer(maxWait); !rdb.SetNX(ctx, "lock:armed", "t", time.Minute).Val(); { // want "bounded by channel"
		select {
		case <-t.C:
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
	return true
}

// ctxErrInit reads the context's error once: it never changes in the loop.
func ctxErrInit(ctx context.Context, rdb *redis.Client) bool {
	for err := ctx.Err(); err == nil; { // want "unbounded"
		if rdb.SetNX(ctx, "lock:armed", "t", time.Minute).Val() {
			return true
		}
	}
	return false
}

func timeoutCtx(parent context.Context, rdb *redis.Client) error {
	ctx, cancel := context.WithTimeout(parent, maxWait)
	defer cancel()
	for { // want "bounded by context"
		ok, err := rdb.SetNX(ctx, "lock:armed", "t", time.Minute).Result()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
	}
}

// paramCtx may or may not have a deadline: nothing here says.
func paramCtx(ctx context.Context, rdb *redis.Client) error {
	for { // want "unbounded"
		ok, err := rdb.SetNX(ctx, "lock:armed", "t", time.Minute).Result()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
	}
}

// reassigned sets the deadline on one path only.
func reassigned(ctx context.Context, rdb *redis.Client, wait bool) error {
	if wait {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, maxWait)
		defer cancel()
	}
	for { // want "unbounded"
		ok, err := rdb.SetNX(ctx, "lock:armed", "t", time.Minute).Result()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
	}
}

// paramWithTimeout gives its parameter a deadline before the loop.
func paramWithTimeout(ctx context.Context, rdb *redis.Client) error {
	ctx, cancel := context.WithTimeout(ctx, maxWait)
	defer cancel()
	for { // want "bounded by context"
		if err := rdb.SetArgs(ctx, "lock:armed", "t", redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err(); err == nil {
			return nil
		} else if !errors.Is(err, redis.Nil) {
			return err
		}
	}
}

func afterFunc(ctx context.Context, rdb *redis.Client) bool {
	var late atomic.Bool
	defer time.AfterFunc(maxWait, func() { late.Store(true) }).Stop()
	for !late.Load() { // want "bounded by flag"
		if rdb.SetNX(ctx, "lock:armed", "t", time.Minute).Val() {
			return true
		}
	}
	return false
}

// resetInLoop clears the flag on every attempt.
func resetInLoop(ctx context.Context, rdb *redis.Client) bool {
	var late atomic.Bool
	defer time.AfterFunc(maxWait, func() { late.Store(true) }).Stop()
	for !late.Load() { // want "unbounded"
		late.Store(false)
		if rdb.SetNX(ctx, "lock:armed", "t", time.Minute).Val() {
			return true
		}
	}
	return false
}
