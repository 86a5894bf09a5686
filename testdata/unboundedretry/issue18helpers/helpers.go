// Package issue18helpers holds retry loops whose bound is one call away,
// in a helper of the same package: each bounded loop beside the near
// miss that really is unbounded.
package issue18helpers

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

func tryLock(ctx context.Context, rdb *redis.Client, key, token string) bool { // want tryLock:"acquires lock via SET NX"
	return rdb.SetNX(ctx, key, token, 30*time.Second).Val()
}

// window holds a deadline fixed when it is made.
type window struct{ deadline time.Time }

func newWindow(d time.Duration) window { return window{deadline: time.Now().Add(d)} }

// over is on a value receiver.
func (w window) over() bool { return time.Now().After(w.deadline) } // want over:"bound: clock on receiver"

// open is on a pointer receiver.
func (w *window) open() bool { return time.Now().Before(w.deadline) } // want open:"bound: clock on receiver"

func windowBuiltBefore(ctx context.Context, rdb *redis.Client, key, token string) error { // want windowBuiltBefore:"acquires lock via"
	w := newWindow(5 * time.Second)
	for !tryLock(ctx, rdb, key, token) {
		if w.over() {
			return errBusy
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

func windowPointer(ctx context.Context, rdb *redis.Client, key, token string) bool { // want windowPointer:"acquires lock via"
	w := &window{deadline: time.Now().Add(time.Second)}
	for w.open() {
		if tryLock(ctx, rdb, key, token) {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// Near miss: a fresh window every iteration never closes.
func windowBuiltInside(ctx context.Context, rdb *redis.Client, key, token string) error { // want windowBuiltInside:"acquires lock via"
	for !tryLock(ctx, rdb, key, token) { // want `lock acquisition retried with no bound, at a constant interval`
		w := newWindow(5 * time.Second)
		if w.over() {
			return errBusy
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// expired compares the clock with the deadline it is given.
func expired(deadline time.Time) bool { return !time.Now().Before(deadline) } // want expired:"bound: clock on deadline"

func deadlineArgument(ctx context.Context, rdb *redis.Client, key, token string, d time.Duration) error { // want deadlineArgument:"acquires lock via"
	deadline := time.Now().Add(d)
	for !tryLock(ctx, rdb, key, token) {
		if expired(deadline) {
			return errBusy
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// Near miss: the deadline passed is recomputed from the clock each time.
func deadlineRecomputed(ctx context.Context, rdb *redis.Client, key, token string, d time.Duration) error { // want deadlineRecomputed:"acquires lock via"
	for !tryLock(ctx, rdb, key, token) { // want `lock acquisition retried with no bound, at a constant interval`
		if expired(time.Now().Add(d)) {
			return errBusy
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// Near miss: the helper recomputes the deadline itself.
func alwaysAhead(d time.Duration) bool { // a fresh deadline against a fresh clock never passes
	deadline := time.Now().Add(d)
	return time.Now().After(deadline)
}

func deadlineInHelper(ctx context.Context, rdb *redis.Client, key, token string) error { // want deadlineInHelper:"acquires lock via"
	for !tryLock(ctx, rdb, key, token) { // want `lock acquisition retried with no bound`
		if alwaysAhead(time.Second) {
			return errBusy
		}
	}
	return nil
}

func closureFixedDeadline(ctx context.Context, rdb *redis.Client, key, token string) bool { // want closureFixedDeadline:"acquires lock via"
	deadline := time.Now().Add(2 * time.Second)
	timedOut := func() bool { return time.Now().After(deadline) }
	for {
		if tryLock(ctx, rdb, key, token) {
			return true
		}
		if timedOut() {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Near miss: the closure's deadline moves forward every iteration.
func closureMovedDeadline(ctx context.Context, rdb *redis.Client, key, token string) bool { // want closureMovedDeadline:"acquires lock via"
	var deadline time.Time
	timedOut := func() bool { return time.Now().After(deadline) }
	for { // want `lock acquisition retried with no bound, at a constant interval`
		deadline = time.Now().Add(2 * time.Second)
		if tryLock(ctx, rdb, key, token) {
			return true
		}
		if timedOut() {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func closureContext(ctx context.Context, rdb *redis.Client, key, token string) error { // want closureContext:"acquires lock via"
	cancelled := func() bool { return ctx.Err() != nil }
	for !tryLock(ctx, rdb, key, token) {
		if cancelled() {
			return ctx.Err()
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// policy says whether another attempt is allowed.
type policy struct{ max int }

func (p policy) allow(attempt int) bool { return attempt < p.max } // want allow:"bound: attempts on attempt"

// next never says stop.
func (p policy) next(attempt int) (time.Duration, bool) {
	return time.Duration(attempt) * 10 * time.Millisecond, true
}

func policyAllow(ctx context.Context, rdb *redis.Client, key, token string) error { // want policyAllow:"acquires lock via"
	p := policy{max: 5}
	for attempt := 0; !tryLock(ctx, rdb, key, token); attempt++ {
		if !p.allow(attempt) {
			return errBusy
		}
		time.Sleep(time.Duration(attempt) * 10 * time.Millisecond)
	}
	return nil
}

// Near miss: a policy whose next never returns false.
func policyNeverStops(ctx context.Context, rdb *redis.Client, key, token string) error { // want policyNeverStops:"acquires lock via"
	p := policy{max: 5}
	for attempt := 0; ; attempt++ { // want `lock acquisition retried with no bound`
		if tryLock(ctx, rdb, key, token) {
			return nil
		}
		d, ok := p.next(attempt)
		if !ok {
			return errBusy
		}
		time.Sleep(d)
	}
}

// Near miss: the attempt counter is reset every iteration.
func policyCounterReset(ctx context.Context, rdb *redis.Client, key, token string) error { // want policyCounterReset:"acquires lock via"
	p := policy{max: 5}
	attempt := 0
	for { // want `lock acquisition retried with no bound`
		attempt = 0
		if tryLock(ctx, rdb, key, token) {
			return nil
		}
		attempt++
		if !p.allow(attempt) {
			return errBusy
		}
	}
}

// Near miss: a counter declared in the body starts again each time.
func counterDeclaredInside(ctx context.Context, rdb *redis.Client, key, token string) error { // want counterDeclaredInside:"acquires lock via"
	for { // want `lock acquisition retried with no bound`
		tries := 0
		if tryLock(ctx, rdb, key, token) {
			return nil
		}
		tries++
		if tries > 3 {
			return errBusy
		}
	}
}

// budget counts down the attempts it allows.
type budget struct{ left int }

func (b *budget) spend() bool { // want spend:"bound: budget on receiver"
	b.left--
	return b.left >= 0
}

// spendCopy steps a copy: the caller's budget never shrinks.
func (b budget) spendCopy() bool { // want spendCopy:"bound: fields on left"
	b.left--
	return b.left >= 0
}

func budgetPointer(ctx context.Context, rdb *redis.Client, key, token string) error { // want budgetPointer:"acquires lock via"
	b := &budget{left: 3}
	for !tryLock(ctx, rdb, key, token) {
		if !b.spend() {
			return errBusy
		}
	}
	return nil
}

// Near miss: the value receiver spends a copy.
func budgetValue(ctx context.Context, rdb *redis.Client, key, token string) error { // want budgetValue:"acquires lock via"
	b := budget{left: 3}
	for !tryLock(ctx, rdb, key, token) { // want `lock acquisition retried with no bound`
		if !b.spendCopy() {
			return errBusy
		}
	}
	return nil
}

// Near miss: a new budget every iteration.
func budgetRebuilt(ctx context.Context, rdb *redis.Client, key, token string) error { // want budgetRebuilt:"acquires lock via"
	for !tryLock(ctx, rdb, key, token) { // want `lock acquisition retried with no bound`
		b := &budget{left: 3}
		if !b.spend() {
			return errBusy
		}
	}
	return nil
}

// within is generic over the attempt's integer type.
func within[N ~int | ~int64](attempt, limit N) bool { return attempt < limit } // want within:"bound: attempts on attempt, limit"

func genericHelper(ctx context.Context, rdb *redis.Client, key, token string) error { // want genericHelper:"acquires lock via"
	var n int64
	for !tryLock(ctx, rdb, key, token) {
		n++
		if !within(n, 10) {
			return errBusy
		}
	}
	return nil
}

// Near miss: the generic helper is given constants only.
func genericHelperConstant(ctx context.Context, rdb *redis.Client, key, token string) error { // want genericHelperConstant:"acquires lock via"
	for !tryLock(ctx, rdb, key, token) { // want `lock acquisition retried with no bound`
		if !within(3, 10) {
			return errBusy
		}
	}
	return nil
}

// Near miss: the deadline is set once and never compared with a fresh
// clock reading.
func deadlineNeverCompared(ctx context.Context, rdb *redis.Client, key, token string, start time.Time) error { // want deadlineNeverCompared:"acquires lock via"
	deadline := time.Now().Add(5 * time.Second)
	for !tryLock(ctx, rdb, key, token) { // want `lock acquisition retried with no bound, at a constant interval`
		if deadline.Before(start) {
			return errBusy
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// Near miss: the deadline is recomputed inside the loop before the
// comparison.
func deadlineMovedInline(ctx context.Context, rdb *redis.Client, key, token string) error { // want deadlineMovedInline:"acquires lock via"
	for !tryLock(ctx, rdb, key, token) { // want `lock acquisition retried with no bound, at a constant interval`
		deadline := time.Now().Add(5 * time.Second)
		if time.Now().After(deadline) {
			return errBusy
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// Near miss: a timeout started afresh every iteration, behind a faster
// ticker, never fires.
func timeoutRestarted(ctx context.Context, rdb *redis.Client, key, token string) bool { // want timeoutRestarted:"acquires lock via"
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for { // want `lock acquisition retried with no bound, at a constant interval`
		select {
		case <-time.After(5 * time.Second):
			return false
		case <-tick.C:
			if tryLock(ctx, rdb, key, token) {
				return true
			}
		}
	}
}

func timeoutStartedOnce(ctx context.Context, rdb *redis.Client, key, token string) bool { // want timeoutStartedOnce:"acquires lock via"
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case <-timeout:
			return false
		case <-tick.C:
			if tryLock(ctx, rdb, key, token) {
				return true
			}
		}
	}
}

// clock is injected for tests.
type clock interface{ Now() time.Time }

func injectedClock(ctx context.Context, rdb *redis.Client, c clock, key, token string) error { // want injectedClock:"acquires lock via"
	deadline := c.Now().Add(time.Second)
	for !tryLock(ctx, rdb, key, token) {
		if c.Now().After(deadline) {
			return errBusy
		}
	}
	return nil
}

// Near miss: the injected clock's deadline is taken again each time.
func injectedClockMoving(ctx context.Context, rdb *redis.Client, c clock, key, token string) error { // want injectedClockMoving:"acquires lock via"
	for !tryLock(ctx, rdb, key, token) { // want `lock acquisition retried with no bound`
		deadline := c.Now().Add(time.Second)
		if c.Now().After(deadline) {
			return errBusy
		}
	}
	return nil
}

// retrier rests on the window it holds, through window's own helper.
type retrier struct{ w window }

func (r *retrier) giveUp() bool { return r.w.over() } // want giveUp:"bound: clock on receiver"

// giveUpFresh asks a window it makes on each call.
func (r *retrier) giveUpFresh() bool { return newWindow(time.Second).over() }

func helperOfHelper(ctx context.Context, rdb *redis.Client, key, token string) error { // want helperOfHelper:"acquires lock via"
	r := &retrier{w: newWindow(time.Second)}
	for !tryLock(ctx, rdb, key, token) {
		if r.giveUp() {
			return errBusy
		}
	}
	return nil
}

// Near miss: the inner helper's window is new on every call.
func helperOfHelperFresh(ctx context.Context, rdb *redis.Client, key, token string) error { // want helperOfHelperFresh:"acquires lock via"
	r := &retrier{w: newWindow(time.Second)}
	for !tryLock(ctx, rdb, key, token) { // want `lock acquisition retried with no bound`
		if r.giveUpFresh() {
			return errBusy
		}
	}
	return nil
}
