// Package bounds pins down each kind of bound (silent) and each thing that
// looks like one but is not (reported).
package bounds

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
)

const lockKey = "lock:nightly-report"

func tryLock(c redis.Conn, token string) bool { // want tryLock:"acquires lock via SET NX"
	reply, err := redis.String(c.Do("SET", lockKey, token, "NX", "PX", 30000))
	return err == nil && reply == "OK"
}

func selectCtxDone(ctx context.Context, c redis.Conn, token string) error { // want selectCtxDone:"acquires lock via"
	for !tryLock(c, token) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return nil
}

func ctxErrInInit(ctx context.Context, c redis.Conn, token string) error { // want ctxErrInInit:"acquires lock via"
	for !tryLock(c, token) {
		if err := ctx.Err(); err != nil {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

func ctxDoneDefault(ctx context.Context, c redis.Conn, token string) bool { // want ctxDoneDefault:"acquires lock via"
	for {
		if tryLock(c, token) {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		default:
		}
	}
}

func deadlineNow(c redis.Conn, token string, deadline time.Time) bool { // want deadlineNow:"acquires lock via"
	for !tryLock(c, token) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

func deadlineSince(c redis.Conn, token string, limit time.Duration) error { // want deadlineSince:"acquires lock via"
	start := time.Now()
	for {
		if tryLock(c, token) {
			return nil
		}
		waited := time.Since(start)
		if waited > limit {
			return fmt.Errorf("gave up after %v", waited)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func deadlineUntil(c redis.Conn, token string, deadline time.Time) bool { // want deadlineUntil:"acquires lock via"
	for time.Until(deadline) > 0 {
		if tryLock(c, token) {
			return true
		}
	}
	return false
}

func timeAfterInSelect(c redis.Conn, token string) bool { // want timeAfterInSelect:"acquires lock via"
	giveUp := time.After(5 * time.Second)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-giveUp:
			return false
		case <-tick.C:
			if tryLock(c, token) {
				return true
			}
		}
	}
}

func timerInSelect(c redis.Conn, token string) bool { // want timerInSelect:"acquires lock via"
	timer := time.NewTimer(5 * time.Second)
	defer timer.Stop()
	for !tryLock(c, token) {
		select {
		case <-timer.C:
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
	return true
}

func stopChannel(c redis.Conn, token string, stop <-chan struct{}) bool { // want stopChannel:"acquires lock via"
	for !tryLock(c, token) {
		select {
		case <-stop:
			return false
		case <-time.After(time.Second):
		}
	}
	return true
}

func forCounter(c redis.Conn, token string, n int) bool { // want forCounter:"acquires lock via"
	for i := 0; i < n; i++ {
		if tryLock(c, token) {
			return true
		}
		time.Sleep(time.Duration(i) * 10 * time.Millisecond)
	}
	return false
}

func rangeInt(c redis.Conn, token string, n int) bool { // want rangeInt:"acquires lock via"
	for range n {
		if tryLock(c, token) {
			return true
		}
	}
	for i := range 5 {
		if tryLock(c, token) {
			return true
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
	return false
}

func decrementInCondition(c redis.Conn, token string) bool { // want decrementInCondition:"acquires lock via"
	tries := 3
	for tries > 0 {
		if tryLock(c, token) {
			return true
		}
		tries--
	}
	return false
}

var errBusy = errors.New("busy")

func attemptsReturn(c redis.Conn, token string, max int) error { // want attemptsReturn:"acquires lock via"
	attempts := 0
	for !tryLock(c, token) {
		attempts += 1
		if attempts >= max {
			return errBusy
		}
	}
	return nil
}

func attemptsPanic(c redis.Conn, token string) {
	for n := 0; ; n = n + 1 {
		if tryLock(c, token) {
			return
		}
		if n > 10 {
			panic("lock never freed")
		}
	}
}

func attemptsGoto(c redis.Conn, token string) bool { // want attemptsGoto:"acquires lock via"
	n := 0
	for !tryLock(c, token) {
		n++
		if n == 5 {
			goto fail
		}
	}
	return true
fail:
	return false
}

func attemptsSwitch(c redis.Conn, token string) error { // want attemptsSwitch:"acquires lock via"
	for attempt := 1; ; attempt++ {
		switch {
		case tryLock(c, token):
			return nil
		case attempt == 4:
			return errBusy
		}
	}
}

// Not bounds: each of these loops is reported.

func tickerOnly(c redis.Conn, token string) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for { // want `lock acquisition retried with no bound`
		select {
		case <-tick.C:
			if tryLock(c, token) {
				return
			}
		}
	}
}

func counterNotCompared(c redis.Conn, token string) int {
	n := 0
	for !tryLock(c, token) { // want `lock acquisition retried with no bound`
		n++
	}
	return n
}

func sinceInLogOnly(c redis.Conn, token string) {
	start := time.Now()
	for { // want `lock acquisition retried with no bound, at a constant interval`
		if tryLock(c, token) {
			fmt.Println("locked after", time.Since(start))
			break
		}
		time.Sleep(time.Second)
	}
}

func timeAsLockValue(c redis.Conn) {
	for { // want `lock acquisition retried with no bound`
		ok := tryLock(c, time.Now().String())
		if ok {
			break
		}
	}
}

func slowLogIsNoExit(c redis.Conn, token string, start time.Time) {
	for !tryLock(c, token) { // want `lock acquisition retried with no bound, at a constant interval`
		if time.Since(start) > time.Minute {
			fmt.Println("still waiting for", lockKey)
		}
		time.Sleep(time.Second)
	}
}

func redisErrorOnly(c redis.Conn, token string) error { // want redisErrorOnly:"acquires lock via SET NX"
	for { // want `lock acquisition retried with no bound`
		reply, err := redis.String(c.Do("SET", lockKey, token, "NX", "PX", 30000))
		if err != nil && !errors.Is(err, redis.ErrNil) {
			return err
		}
		if reply == "OK" {
			return nil
		}
	}
}
