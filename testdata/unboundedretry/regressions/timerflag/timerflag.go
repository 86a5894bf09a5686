// Package timerflag pins a loop that exits on a flag which a goroutine,
// started before the loop, sets when a timer fires (time.AfterFunc, or a
// goroutine that waits on time.After or a timer and then sets it): the
// flag is a deadline. It was reported because the flag is written in a
// closure the loop's bounds never looked into. A flag that nothing sets,
// or that a goroutine sets with no timer before it, is still no bound.
package timerflag

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

const maxWait = 5 * time.Second

func afterFunc(ctx context.Context, rdb *redis.Client, key, token string) bool {
	var timedOut atomic.Bool
	t := time.AfterFunc(maxWait, func() { timedOut.Store(true) })
	defer t.Stop()
	for !timedOut.Load() {
		if rdb.SetNX(ctx, key, token, time.Minute).Val() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

func goroutineAfter(ctx context.Context, rdb *redis.Client, key, token string) bool {
	var expired int32
	go func() {
		<-time.After(maxWait)
		atomic.StoreInt32(&expired, 1)
	}()
	for {
		if rdb.SetNX(ctx, key, token, time.Minute).Val() {
			return true
		}
		if atomic.LoadInt32(&expired) == 1 {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func goroutineTimer(ctx context.Context, rdb *redis.Client, key, token string) bool {
	stop := new(atomic.Bool)
	timer := time.NewTimer(maxWait)
	defer timer.Stop()
	go func() {
		<-timer.C
		stop.Store(true)
	}()
	for !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		if stop.Load() {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// neverSet waits on a flag nothing ever sets.
func neverSet(ctx context.Context, rdb *redis.Client, key, token string) bool {
	var timedOut atomic.Bool
	for !timedOut.Load() { // want `lock acquisition retried with no bound`
		if rdb.SetNX(ctx, key, token, time.Minute).Val() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// setAfterWork sets the flag when some work ends, which may be never.
func setAfterWork(ctx context.Context, rdb *redis.Client, key, token string, work func()) bool {
	var done atomic.Bool
	go func() {
		work()
		done.Store(true)
	}()
	for !done.Load() { // want `lock acquisition retried with no bound`
		if rdb.SetNX(ctx, key, token, time.Minute).Val() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// startedAfter arms the timer only once the loop is over: nothing ends
// the loop.
func startedAfter(ctx context.Context, rdb *redis.Client, key, token string) bool {
	var timedOut atomic.Bool
	for !timedOut.Load() { // want `lock acquisition retried with no bound`
		if rdb.SetNX(ctx, key, token, time.Minute).Val() {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.AfterFunc(maxWait, func() { timedOut.Store(true) })
	return true
}
