// Package app pins issue 32's miss of a constant passed through another
// package's constructor into the field that Lock stores: every replica's
// invoicer stores "invoicer", and Unlock's owner check passes for any of
// them. The near miss makes a handle with a fresh owner per run.
package app

import (
	"context"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"locklint.test/pending/constanttoken/ctorfield/dlock"
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
