// Package reports builds the nightly report under a lock taken through
// the in-house locker package.
package reports

import (
	"context"
	"time"

	"github.com/locklint/locklint/examples/locker"
)

// Nightly waits for the report lock, however long that takes.
func Nightly(ctx context.Context, l *locker.Locker, build func(context.Context) error) error {
	var h *locker.Handle
	for { // BUG(unboundedretry): TryLock acquires in another package; nothing bounds this wait
		var ok bool
		if h, ok = l.TryLock(ctx, "nightly-report"); ok {
			break
		}
		time.Sleep(time.Second)
	}
	_ = h
	return build(ctx)
}

// NightlyBounded gives up after ten attempts.
func NightlyBounded(ctx context.Context, l *locker.Locker, build func(context.Context) error) error {
	for attempt := 0; attempt < 10; attempt++ {
		if _, ok := l.TryLock(ctx, "nightly-report"); ok {
			return build(ctx)
		}
		time.Sleep(time.Second)
	}
	return context.DeadlineExceeded
}
