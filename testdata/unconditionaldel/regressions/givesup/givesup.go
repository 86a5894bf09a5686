// Package givesup pins a checkout's pre-order claim: taken by a script
// that checks the key is absent, kept for its TTL when the checkout goes
// on (a later step ends it), and given back by the taker when the work
// cannot start (no items) or fails. Those deletes remove the taker's own
// fresh claim: silent. The twins delete on the take's own failure (the
// key is another's) and release a lock held across the work after it:
// both are reported.
package givesup

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

const takeScript = `
if redis.call("EXISTS", KEYS[1]) == 1 then
	return 0
end
redis.call("SET", KEYS[1], ARGV[1], "EX", ARGV[2])
return 1`

type Item struct{ ID string }

func reserve(context.Context, []Item) error { return nil }

func PrepareCheckout(ctx context.Context, rdb *redis.Client, user, orderID string, items []Item) error {
	key := "checkout:lock:" + user
	n, err := rdb.Eval(ctx, takeScript, []string{key}, orderID, 300).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		return errors.New("a checkout is in progress")
	}
	if len(items) == 0 {
		if err := rdb.Del(ctx, key).Err(); err != nil {
			return err
		}
		return errors.New("no items")
	}
	if err := reserve(ctx, items); err != nil {
		rdb.Del(ctx, key)
		return err
	}
	return nil
}

// Reported: the take failed, so the key is another checkout's.
func PrepareOverwrite(ctx context.Context, rdb *redis.Client, user, orderID string, items []Item) error {
	key := "checkout2:lock:" + user
	ok, err := rdb.SetNX(ctx, key, orderID, 5*time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
		return errors.New("a checkout is in progress")
	}
	return reserve(ctx, items)
}

// Reported: a lock held across the work and given back after it. The
// exit right after the take, before the work, deletes the key the take
// set a moment before: the lock's defect is reported once, at the
// release after the work.
func Rebuild(ctx context.Context, rdb *redis.Client, user, token string, items []Item) error {
	key := "rebuild:lock:" + user
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	if len(items) == 0 {
		rdb.Del(ctx, key) // at once, before the work: the key is the take's
		return nil
	}
	err = reserve(ctx, items)
	rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	return err
}
