// Package retryloop pins a redsync acquire retried in a loop whose
// condition tests its error: for err != nil { ...; err =
// mtx.LockContext(ctx) } reads the error of the call in the body when
// the condition runs again, and the work after the loop runs only once
// the lock was obtained. The twins retry a fixed number of times, or test
// another variable, and then work whether or not they got it.
package retryloop

import (
	"context"
	"errors"

	"github.com/go-redsync/redsync/v4"
)

func allocate(ctx context.Context, rs *redsync.Redsync, building string, work func() error) error {
	mtx := rs.NewMutex("alloc:" + building)
	err := mtx.LockContext(ctx)
	for err != nil {
		select {
		case <-ctx.Done():
			return errors.New("no lock before the deadline")
		default:
			err = mtx.LockContext(ctx)
		}
	}
	defer mtx.UnlockContext(ctx)
	return work()
}

func allocateFixed(ctx context.Context, rs *redsync.Redsync, building string, work func() error) error {
	mtx := rs.NewMutex("alloc:" + building)
	var err error
	for i := 0; i < 3; i++ {
		err = mtx.LockContext(ctx) // want "error of `mtx.LockContext` never read"
	}
	_ = err
	defer mtx.UnlockContext(ctx)
	return work()
}

func allocateFlag(ctx context.Context, rs *redsync.Redsync, building string, work func() error) error {
	mtx := rs.NewMutex("alloc:" + building)
	tries := 0
	var err error
	for tries < 3 {
		err = mtx.LockContext(ctx) // want "error of `mtx.LockContext` never read"
		tries++
	}
	_ = err
	defer mtx.UnlockContext(ctx)
	return work()
}
