// Package keptmarker pins a shop's payment markers: the webhook and the
// capture both claim "order_paid_lock:<order>" (and the webhook its event
// id) with SETNX, give the claim seven days with a separate EXPIRE, keep
// it on success and delete it only when the work failed. A crash between
// the two commands leaves for good a marker that would have stayed a
// week anyway, and keeps out what it kept out: silent. The twins give a
// lock a lease of seconds, or release the marker on success too: a
// crash between the commands leaves a key that never expires, and every
// later take fails for good.
package keptmarker

import (
	"context"
	"errors"

	"github.com/zeromicro/go-zero/core/stores/redis"

	"locklint.test/setnxexpire/regressions/keptmarker/keys"
)

const week = 7 * 24 * 3600

func markPaid(context.Context, string) error { return nil }

func Webhook(ctx context.Context, rds *redis.Redis, event, order string) error {
	key := keys.WebhookProcessedKey(event)
	first, err := rds.SetnxCtx(ctx, key, "1")
	if err != nil {
		return err
	}
	if !first {
		return nil // already processed
	}
	rds.ExpireCtx(ctx, key, week)
	if err := paid(ctx, rds, order); err != nil {
		rds.DelCtx(ctx, key)
		return err
	}
	return nil
}

func paid(ctx context.Context, rds *redis.Redis, order string) error {
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

// Must report: a lock with a lease of seconds, released after the work.
func Sync(ctx context.Context, rds *redis.Redis, order string) error {
	lockKey := keys.OrderSyncLockKey(order)
	ok, err := rds.SetnxCtx(ctx, lockKey, "1") // want "SETNX and the EXPIRE on line 83 are separate commands"
	if err != nil || !ok {
		return errors.New("busy")
	}
	rds.ExpireCtx(ctx, lockKey, 30)
	defer rds.DelCtx(ctx, lockKey)
	return markPaid(ctx, order)
}

// Must report: a week-long EXPIRE, but the success path deletes the key
// too: a lock held while the work runs, not a marker kept.
func Refund(ctx context.Context, rds *redis.Redis, order string) error {
	key := "refund:lock:" + order
	ok, err := rds.SetnxCtx(ctx, key, "1") // want "SETNX and the EXPIRE on line 96 are separate commands"
	if err != nil || !ok {
		return errors.New("busy")
	}
	rds.ExpireCtx(ctx, key, week)
	err = markPaid(ctx, order)
	rds.DelCtx(ctx, key)
	return err
}
