// Package elect elects a leader with a redsync mutex, polled through a
// helper of another package.
package elect

import (
	"context"
	"log"
	"time"

	"github.com/go-redsync/redsync/v4"

	"locklint.test/unboundedretry/regressions/pollacquire/poll"
)

type Elector struct {
	mutex *redsync.Mutex
	every time.Duration
	lead  func(context.Context)
}

func (e *Elector) take(ctx context.Context) (bool, error) {
	if err := e.mutex.LockContext(ctx); err != nil {
		return false, err
	}
	return true, nil
}

// Acquire polls take until it holds the lock, then leads until ctx ends.
func (e *Elector) Acquire(ctx context.Context) error { // want Acquire:"acquires lock via"
	if err := poll.UntilCancel(ctx, e.every, true, e.take); err != nil {
		return err
	}
	defer e.mutex.Unlock()
	e.lead(ctx)
	return nil
}

// Run never tests ctx: once the caller cancels it, every Acquire
// returns at once and the loop spins for ever.
func Run(ctx context.Context, e *Elector) error {
	for { // want "lock acquisition repeated in a loop with no exit that never tests its context"
		if err := e.Acquire(ctx); err != nil {
			log.Println(err)
		}
	}
}

// Near miss: the same loop ends with its context.
func RunCtx(ctx context.Context, e *Elector) error {
	for ctx.Err() == nil {
		if err := e.Acquire(ctx); err != nil {
			log.Println(err)
		}
	}
	return ctx.Err()
}

// Near miss: a standby that sleeps between terms does not spin.
func Standby(ctx context.Context, e *Elector) {
	for {
		if err := e.Acquire(ctx); err != nil {
			log.Println(err)
		}
		time.Sleep(e.every)
	}
}
