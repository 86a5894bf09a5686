// Package kinds gives the debug analyzer one loop for each thing that can
// end a retry, and for each that cannot.
package kinds

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func tryLock(ctx context.Context, rdb *redis.Client, token string) bool { // want tryLock:"acquires lock via SET NX"
	return rdb.SetNX(ctx, "lock:kinds", token, time.Minute).Val()
}

func spin(ctx context.Context, rdb *redis.Client, token string) {
	for !tryLock(ctx, rdb, token) { // want "unbounded"
		time.Sleep(10 * time.Millisecond)
	}
}

func byContext(ctx context.Context, rdb *redis.Client, token string) error { // want byContext:"acquires lock via"
	for !tryLock(ctx, rdb, token) { // want "bounded by context"
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil
}

func byClock(ctx context.Context, rdb *redis.Client, token string, deadline time.Time) bool { // want byClock:"acquires lock via"
	for !tryLock(ctx, rdb, token) { // want "bounded by clock"
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// movingDeadline recomputes its deadline from the clock each time round:
// it never arrives.
func movingDeadline(ctx context.Context, rdb *redis.Client, token string) bool { // want movingDeadline:"acquires lock via"
	for !tryLock(ctx, rdb, token) { // want "unbounded"
		deadline := time.Now().Add(time.Second)
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

func byTimer(ctx context.Context, rdb *redis.Client, token string) bool { // want byTimer:"acquires lock via"
	giveUp := time.After(time.Second)
	for !tryLock(ctx, rdb, token) { // want "bounded by channel"
		select {
		case <-giveUp:
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
	return true
}

// freshTimer starts its timer again every iteration: a pause, not a
// deadline.
func freshTimer(ctx context.Context, rdb *redis.Client, token string) { // want freshTimer:"acquires lock via"
	for !tryLock(ctx, rdb, token) { // want "unbounded"
		<-time.After(10 * time.Millisecond)
	}
}

func byCounter(ctx context.Context, rdb *redis.Client, token string, n int) bool { // want byCounter:"acquires lock via"
	for i := 0; i < n; i++ { // want "bounded by attempts"
		if tryLock(ctx, rdb, token) {
			return true
		}
	}
	return false
}

// counterInBody starts its count afresh every iteration.
func counterInBody(ctx context.Context, rdb *redis.Client, token string) { // want counterInBody:"acquires lock via"
	for { // want "unbounded"
		tries := 0
		if tryLock(ctx, rdb, token) {
			return
		}
		tries++
		if tries > 3 {
			time.Sleep(time.Second)
		}
	}
}

// budget spends a count its receiver holds.
type budget struct{ left int }

func (b *budget) take() bool { // want take:"bound: budget on receiver"
	b.left--
	return b.left >= 0
}

func byBudget(ctx context.Context, rdb *redis.Client, token string) bool { // want byBudget:"acquires lock via"
	b := &budget{left: 5}
	for !tryLock(ctx, rdb, token) { // want "bounded by budget"
		if !b.take() {
			return false
		}
	}
	return true
}

// noExit waits for the lock and then works under it for good: the loop
// has no exit, so there is nothing to bound.
func noExit(ctx context.Context, rdb *redis.Client, token string, work func()) {
	for { // want "no exit"
		if tryLock(ctx, rdb, token) {
			for {
				work()
				time.Sleep(time.Second)
			}
		}
		time.Sleep(time.Second)
	}
}

// recurse retries by calling itself, with an attempt count it steps.
func recurse(ctx context.Context, rdb *redis.Client, token string, attempt int) bool { // want recurse:"acquires lock via"
	if tryLock(ctx, rdb, token) {
		return true
	}
	if attempt >= 5 {
		return false
	}
	time.Sleep(10 * time.Millisecond)
	return recurse(ctx, rdb, token, attempt+1) // want "recursion bounded by attempts"
}

// recurseForever passes the same attempt on.
func recurseForever(ctx context.Context, rdb *redis.Client, token string) bool { // want recurseForever:"acquires lock via"
	if tryLock(ctx, rdb, token) {
		return true
	}
	time.Sleep(10 * time.Millisecond)
	return recurseForever(ctx, rdb, token) // want "recursion unbounded"
}

// periodic acquires once per tick and goes on after success: not a retry,
// so no loop is reported.
func periodic(ctx context.Context, rdb *redis.Client, token string, tick <-chan time.Time, run func()) {
	for range tick {
		if tryLock(ctx, rdb, token) {
			run()
		}
	}
}
