// Package worker pins a webhook worker that marks each webhook as seen
// after storing it and drops the marker helper's error: a duplicate's
// marker is a record, and nothing runs under it. The twin drops the
// error of the wallet lock's acquire and credits the wallet without it.
package worker

import (
	"context"
	"time"

	"locklint.test/uncheckedacquire/regressions/idemhelper/store"
)

// Near miss (silent): the marker's error is dropped.
func Record(ctx context.Context, c *store.Client, ref string, save func() error) error {
	c.SetIdempotencyKey(ctx, ref, 30*time.Minute)
	if err := save(); err != nil {
		return err
	}
	return nil
}

// Must report: the credit runs whether or not the lock was taken.
func Credit(ctx context.Context, c *store.Client, user string, credit func() error) error {
	c.AcquireLock(ctx, "wallet:"+user, 10*time.Second) // want "error of `c\\.AcquireLock` discarded"
	if err := credit(); err != nil {
		return err
	}
	return nil
}
