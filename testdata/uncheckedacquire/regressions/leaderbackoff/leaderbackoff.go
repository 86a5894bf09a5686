// Package leaderbackoff pins a leader election loop over redislock: a
// failed Obtain counts the miss (held by another, or a Redis error
// logged) and then waits out its back-off before it tries again, or
// returns when the context is done. Every error leads back to the
// acquire, none into the leader's work: silent. The twin counts the
// miss, waits the same back-off and then runs the leader's work anyway:
// reported.
package leaderbackoff

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/bsm/redislock"
)

type counter struct{ n int }

func (c *counter) Inc() { c.n++ }

var heldByOther, redisErrors counter

// Near miss (silent): each error waits and tries again.
func Run(ctx context.Context, locker *redislock.Client, backoff time.Duration, lead func(context.Context)) error {
	for {
		if ctx.Err() != nil {
			return nil
		}
		lock, err := locker.Obtain(ctx, "jobs:leader", 10*time.Second, nil)
		if err != nil {
			if errors.Is(err, redislock.ErrNotObtained) {
				heldByOther.Inc()
			} else {
				redisErrors.Inc()
				log.Printf("acquire failed: %v", err)
			}
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(backoff):
			}
			continue
		}
		lead(ctx)
		lock.Release(context.Background())
	}
}

// Near miss (silent): a sleep before the next try.
func RunSleeping(ctx context.Context, locker *redislock.Client, lead func(context.Context)) {
	for ctx.Err() == nil {
		lock, err := locker.Obtain(ctx, "sweeps:leader", 10*time.Second, nil)
		if err != nil {
			if errors.Is(err, redislock.ErrNotObtained) {
				heldByOther.Inc()
			}
			time.Sleep(time.Second)
			continue
		}
		lead(ctx)
		lock.Release(context.Background())
	}
}

// Must report: the miss is counted, and after the back-off the work runs.
func RunOnce(ctx context.Context, locker *redislock.Client, backoff time.Duration, lead func(context.Context)) {
	lock, err := locker.Obtain(ctx, "reports:leader", 10*time.Second, nil) // want "not-obtained error is only logged"
	if err != nil {
		if errors.Is(err, redislock.ErrNotObtained) {
			heldByOther.Inc()
		}
		time.Sleep(backoff)
	}
	lead(ctx)
	lock.Release(context.Background())
}
