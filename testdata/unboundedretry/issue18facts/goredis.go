// Package issue18facts retries go-redis v9 and redigo acquires bounded
// by the issue18policy package, which it knows through facts.
package issue18facts

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"locklint.test/unboundedretry/issue18policy"
)

var errBusy = errors.New("busy")

const ttl = 10 * time.Second

func windowOpen(ctx context.Context, rdb *redis.Client, key, token string) bool { // want windowOpen:"acquires lock via"
	w := issue18policy.NewWindow(3 * time.Second)
	for w.Open() {
		if rdb.SetNX(ctx, key, token, ttl).Val() {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// Near miss: the window is remade every iteration.
func windowRemade(ctx context.Context, rdb *redis.Client, key, token string) bool { // want windowRemade:"acquires lock via"
	for { // want `lock acquisition retried with no bound, at a constant interval`
		if rdb.SetNX(ctx, key, token, ttl).Val() {
			return true
		}
		if w := issue18policy.NewWindow(3 * time.Second); !w.Open() {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func budgetTake(ctx context.Context, rdb *redis.Client, key, token string) error { // want budgetTake:"acquires lock via"
	b := issue18policy.NewBudget(5)
	for !rdb.SetNX(ctx, key, token, ttl).Val() {
		if !b.Take() {
			return errBusy
		}
	}
	return nil
}

func policyNext(ctx context.Context, rdb *redis.Client, key, token string) error { // want policyNext:"acquires lock via"
	p := &issue18policy.Policy{Base: 10 * time.Millisecond, Max: 6}
	for attempt := 0; ; attempt++ {
		ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		pause, more := p.Next(attempt)
		if !more {
			return errBusy
		}
		time.Sleep(pause)
	}
}

// Near miss: the same loop with a policy that never stops.
func policyForever(ctx context.Context, rdb *redis.Client, key, token string) error { // want policyForever:"acquires lock via"
	p := issue18policy.Forever{Base: 10 * time.Millisecond}
	for attempt := 0; ; attempt++ { // want `lock acquisition retried with no bound`
		ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		pause, more := p.Next(attempt)
		if !more {
			return errBusy
		}
		time.Sleep(pause)
	}
}

// Near miss: the attempt passed is not the loop's counter.
func policyFixedAttempt(ctx context.Context, rdb *redis.Client, key, token string) error { // want policyFixedAttempt:"acquires lock via"
	p := &issue18policy.Policy{Base: 10 * time.Millisecond, Max: 6}
	for { // want `lock acquisition retried with no bound`
		if rdb.SetNX(ctx, key, token, ttl).Val() {
			return nil
		}
		pause, more := p.Next(1)
		if !more {
			return errBusy
		}
		time.Sleep(pause)
	}
}

// Near miss: a helper that logs the attempt and always allows another.
func loggedOnly(ctx context.Context, rdb *redis.Client, key, token string) error { // want loggedOnly:"acquires lock via"
	for n := 0; ; n++ { // want `lock acquisition retried with no bound`
		if rdb.SetNX(ctx, key, token, ttl).Val() {
			return nil
		}
		if !issue18policy.Logged(n) {
			return errBusy
		}
	}
}

func contextHelper(ctx context.Context, rdb *redis.Client, key, token string) error { // want contextHelper:"acquires lock via"
	for !rdb.SetNX(ctx, key, token, ttl).Val() {
		if issue18policy.Done(ctx) {
			return ctx.Err()
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

func genericWithin(ctx context.Context, rdb *redis.Client, key, token string) error { // want genericWithin:"acquires lock via"
	var tries int32
	for !rdb.SetNX(ctx, key, token, ttl).Val() {
		tries++
		if !issue18policy.Within(tries, 8) {
			return errBusy
		}
	}
	return nil
}

func genericSpan(ctx context.Context, rdb *redis.Client, key, token string) error { // want genericSpan:"acquires lock via"
	s := issue18policy.NewSpan("acquire", time.Second)
	for !rdb.SetNX(ctx, key, token, ttl).Val() {
		if s.Over() {
			return errBusy
		}
	}
	return nil
}

// Near miss: a span started inside the loop.
func genericSpanInside(ctx context.Context, rdb *redis.Client, key, token string) error { // want genericSpanInside:"acquires lock via"
	for !rdb.SetNX(ctx, key, token, ttl).Val() { // want `lock acquisition retried with no bound`
		s := issue18policy.NewSpan(key, time.Second)
		if s.Over() {
			return errBusy
		}
	}
	return nil
}

// attempt wraps the other package's window: a helper resting on a helper
// known through its fact.
type attempt struct{ w issue18policy.Window }

func (a attempt) late() bool { return !a.w.Open() } // want late:"bound: clock on receiver"

func wrappedWindow(ctx context.Context, rdb *redis.Client, key, token string) error { // want wrappedWindow:"acquires lock via"
	a := attempt{w: issue18policy.NewWindow(time.Second)}
	for !rdb.SetNX(ctx, key, token, ttl).Val() {
		if a.late() {
			return errBusy
		}
	}
	return nil
}

// Near miss: the wrapper is rebuilt, window and all, every iteration.
func wrappedWindowRebuilt(ctx context.Context, rdb *redis.Client, key, token string) error { // want wrappedWindowRebuilt:"acquires lock via"
	for !rdb.SetNX(ctx, key, token, ttl).Val() { // want `lock acquisition retried with no bound`
		a := attempt{w: issue18policy.NewWindow(time.Second)}
		if a.late() {
			return errBusy
		}
	}
	return nil
}
