// Package billing charges invoices under locks taken through the
// service's own store package: a wrapper type, a wrapper interface and a
// lock type, each hiding go-redis.
package billing

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/examples/billing/store"
)

// ErrBusy means another worker holds the invoice.
var ErrBusy = errors.New("invoice busy")

// Charge takes the invoice lock through store.Client.
func Charge(ctx context.Context, c *store.Client, invoice, token string, charge func(context.Context) error) error {
	key := "lock:invoice:" + invoice
	ok, err := c.PutIfAbsent(ctx, key, token, 30*time.Second)
	if err != nil || !ok {
		return ErrBusy
	}
	defer c.Remove(ctx, key)                               // BUG(unconditionaldel): store.Client.Remove is a plain DEL
	if err := c.Touch(ctx, key, time.Minute); err != nil { // BUG(plainpexpire): store.Client.Touch is a plain PEXPIRE
		return err
	}
	return charge(ctx)
}

// Refund takes the invoice lock through the store.Redis interface.
func Refund(ctx context.Context, r store.Redis, invoice string, refund func(context.Context) error) error {
	key := "lock:refund:" + invoice
	// The constant "1" is every holder's token; nothing compares it, so the
	// lock's one defect is its release, whose finding names the constant.
	if !r.SetNX(ctx, key, "1", 30*time.Second).Val() {
		return ErrBusy
	}
	defer r.Del(ctx, key) // BUG(unconditionaldel): no owner check behind the interface either, and a "1" that no owner check could tell apart
	return refund(ctx)
}

// Settle takes the lock through store.Locker, whose TryLock and Unlock are
// wrong in the store package itself.
func Settle(ctx context.Context, l *store.Locker, invoice string, settle func(context.Context) error) error {
	key := "settle:" + invoice
	if ok, err := l.TryLock(ctx, key, time.Minute); err != nil || !ok {
		return ErrBusy
	}
	defer l.Unlock(ctx, key)
	return settle(ctx)
}

// ChargeSafe is the correct version: fix.Obtain stores a fresh token, and
// the lock's own Release and Refresh check it.
func ChargeSafe(ctx context.Context, rdb *redis.Client, invoice string, charge func(context.Context) error) error {
	lock, err := fix.Obtain(ctx, rdb, "lock:invoice:"+invoice, 30*time.Second)
	if err != nil {
		return ErrBusy
	}
	defer lock.Release(ctx)
	if err := lock.Refresh(ctx, time.Minute); err != nil {
		return err
	}
	return charge(ctx)
}
