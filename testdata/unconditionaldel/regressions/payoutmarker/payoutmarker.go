// Package payoutmarker pins a settlement's once-only marker: taken with
// SETNX of "1" for half an hour, kept when the payout committed (the
// success branch returns with the key in place, so that a second pod
// reads the stored result instead of paying again), and deleted on each
// of the transaction's failures so that the next attempt may settle. It
// is a record, not a lock: its deletes undo the take. The near miss
// that must report is a job lock taken the same way whose success branch
// deletes it when the work is done: given back after work, with no owner
// check.
package payoutmarker

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

const payoutKeyTTL = 30 * time.Minute

type tx interface {
	Exec(ctx context.Context, q string) error
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
}

type Info struct{ Pot float64 }

// Silent: every delete is on a failure path, and success keeps the key.
func Settle(ctx context.Context, rdb *redis.Client, begin func() (tx, error), match string) (*Info, error) {
	key := "payout:" + match
	ok, err := rdb.SetNX(ctx, key, "1", payoutKeyTTL).Result()
	if err != nil {
		return nil, err
	}
	if ok {
		t, err := begin()
		if err != nil {
			rdb.Del(ctx, key)
			return nil, err
		}
		defer t.Rollback(ctx)
		if err := t.Exec(ctx, "INSERT INTO transactions"); err != nil {
			rdb.Del(ctx, key)
			return nil, err
		}
		if err := t.Exec(ctx, "INSERT INTO platform_fees"); err != nil {
			rdb.Del(ctx, key)
			return nil, err
		}
		if err := t.Commit(ctx); err != nil {
			rdb.Del(ctx, key)
			return nil, err
		}
		info := &Info{Pot: 1}
		rdb.Set(ctx, "payout:result:"+match, "stored", payoutKeyTTL)
		return info, nil
	}
	if _, err := rdb.Get(ctx, "payout:result:"+match).Result(); err == nil {
		return &Info{}, nil
	}
	return nil, errors.New("settled elsewhere")
}

// Must report: the success branch gives the lock back when the work is
// done, with a plain DEL.
func Sweep(ctx context.Context, rdb *redis.Client, work func() error) error {
	key := "sweep:lock"
	ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result()
	if err != nil {
		return err
	}
	if ok {
		if err := work(); err != nil {
			rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
			return err
		}
		rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
		return nil
	}
	return errors.New("busy")
}
