// Package app pins issue 32's miss of a constant passed through another
// package's constructor into the field that Lock stores: every replica's
// invoicer stores "invoicer", and Unlock's owner check passes for any of
// them. The near misses make a handle with a fresh owner per run, and a
// lease with no owner, which draws its own before it acquires.
package app

import (
	"context"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"locklint.test/constanttoken/regressions/ctorfield/dlock"
)

// Must report: the owner every acquisition stores is a constant.
func InvoiceRun(ctx context.Context, rdb *redis.Client, bill func() error) error {
	m := dlock.NewMutex(rdb, "lock:invoices", "invoicer") // want "non-unique token .*`\"invoicer\"`"
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return bill()
}

// Near miss (silent): a random owner for this run's handle.
func ReminderRun(ctx context.Context, rdb *redis.Client, remind func() error) error {
	m := dlock.NewMutex(rdb, "lock:reminders", uuid.NewString())
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return remind()
}

// Near miss (silent): the empty owner is replaced by a random one in the
// lease before it acquires.
func NightlyRun(ctx context.Context, rdb *redis.Client, run func() error) error {
	l := dlock.NewLease(rdb, "lock:nightly", "")
	ok, err := l.Acquire(ctx)
	if err != nil || !ok {
		return err
	}
	defer l.Release(ctx)
	return run()
}
