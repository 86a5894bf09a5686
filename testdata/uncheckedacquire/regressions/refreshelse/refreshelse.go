// Package refreshelse pins a redislock keep-up loop whose Refresh error
// is tested in an if-else chain: the not-obtained branch reads the
// lock's TTL into the same error variable and goes round again, and the
// else branch returns on any other error. The assignment in the first
// branch does not reach the second, whose test still reads the
// Refresh's error. The twin has no else branch: any other error runs the
// code after it.
package refreshelse

import (
	"context"
	"time"

	"github.com/bsm/redislock"
)

func keepUp(ctx context.Context, lock *redislock.Lock, ttl time.Duration, tick func()) {
	left := ttl
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(left):
			return
		case <-time.After(ttl / 5):
		}
		if err := lock.Refresh(ctx, ttl, nil); err == redislock.ErrNotObtained {
			if left, err = lock.TTL(ctx); err != nil {
				return
			}
			continue
		} else if err != nil {
			return
		}
		left = ttl
		tick()
	}
}

func keepUpLoose(ctx context.Context, lock *redislock.Lock, ttl time.Duration, tick func()) {
	left := ttl
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(left):
			return
		case <-time.After(ttl / 5):
		}
		if err := lock.Refresh(ctx, ttl, nil); err == redislock.ErrNotObtained { // want "only `lock.Refresh`'s not-obtained error is checked"
			if left, err = lock.TTL(ctx); err != nil {
				return
			}
			continue
		}
		left = ttl
		tick()
	}
}
