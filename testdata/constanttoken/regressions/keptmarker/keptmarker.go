// Package keptmarker pins a shop's "paid" marker that the webhook and
// the capture both claim: "order_paid_lock:<order>" from another
// package's key maker, SETNX of "1", a separate week-long EXPIRE, kept on
// success and deleted through go-zero only when the work failed. Nothing
// compares the value, so the constant guards nothing: silent. The twin's
// lock is released by a compare of the same constant: reported.
package keptmarker

import (
	"context"
	"errors"

	"github.com/zeromicro/go-zero/core/stores/redis"

	"locklint.test/constanttoken/regressions/keptmarker/keys"
)

const week = 7 * 24 * 3600

func markPaid(context.Context, string) error { return nil }

func Webhook(ctx context.Context, rds *redis.Redis, order string) error {
	lockKey := keys.OrderPaidLockKey(order)
	first, err := rds.SetnxCtx(ctx, lockKey, "1")
	if err != nil {
		return err
	}
	if !first {
		return nil
	}
	rds.ExpireCtx(ctx, lockKey, week)
	if err := markPaid(ctx, order); err != nil {
		rds.DelCtx(ctx, lockKey)
		return err
	}
	return nil
}

func Capture(ctx context.Context, rds *redis.Redis, order string) error {
	lockKey := keys.OrderPaidLockKey(order)
	first, err := rds.SetnxCtx(ctx, lockKey, "1")
	if err != nil {
		first = true
	}
	if !first {
		return nil
	}
	rds.ExpireCtx(ctx, lockKey, week)
	if err := markPaid(ctx, order); err != nil {
		rds.DelCtx(ctx, lockKey)
		return err
	}
	return nil
}

// Must report: the release compares the value with the constant every
// holder stores.
func Sync(ctx context.Context, rds *redis.Redis, order string) error {
	lockKey := keys.OrderSyncLockKey(order)
	ok, err := rds.SetnxExCtx(ctx, lockKey, "1", 30) // want "lock key `lockKey` acquired with a non-unique token \\(the constant `\"1\"`\\)"
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer func() {
		if v, _ := rds.GetCtx(ctx, lockKey); v == "1" {
			rds.DelCtx(ctx, lockKey)
		}
	}()
	return markPaid(ctx, order)
}
