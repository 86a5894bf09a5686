// Package offermarker pins a delivery matcher that marks each ready order
// "offer in flight" with SETNX for a few seconds, skips orders already
// marked, and deletes its own fresh marker on every path that sends no
// offer (no restaurant, no rider near, all riders busy) before it goes on
// to the next order; the path that sends the offer keeps the marker,
// rewritten with the rider's id. The deletes give back a claim the work
// could not use: silent. The twin is a lock over each order's settlement:
// its DEL on the give-up path and its DEL after the work are reported,
// because the success path deletes the key too.
package offermarker

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Order struct{ ID, Restaurant string }

func restaurant(string) (string, error) { return "", nil }
func nearby(string) []string            { return nil }
func offer(string, string) error        { return nil }

// Near miss (silent): the marker is given back when no offer is sent.
func Match(ctx context.Context, rdb *redis.Client, orders []Order) {
	for _, o := range orders {
		pendingKey := "pending_delivery:" + o.ID
		ok, err := rdb.SetNX(ctx, pendingKey, "1", 12*time.Second).Result()
		if err != nil || !ok {
			continue
		}
		place, err := restaurant(o.Restaurant)
		if err != nil {
			rdb.Del(ctx, pendingKey)
			continue
		}
		riders := nearby(place)
		if len(riders) == 0 {
			rdb.Del(ctx, pendingKey)
			continue
		}
		if err := offer(o.ID, riders[0]); err != nil {
			rdb.Del(ctx, pendingKey)
			continue
		}
		rdb.Set(ctx, pendingKey, riders[0], 10*time.Second)
	}
}

func lines(string) []string { return nil }
func settle([]string)       {}
func audit(string)          {}

// Must report: the settlement lock is deleted after the work as well.
func Settle(ctx context.Context, rdb *redis.Client, orders []Order) {
	for _, o := range orders {
		key := "settle:" + o.ID
		ok, err := rdb.SetNX(ctx, key, "1", 12*time.Second).Result()
		if err != nil || !ok {
			continue
		}
		audit(o.ID)
		ls := lines(o.ID)
		if len(ls) == 0 {
			rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
			continue
		}
		settle(ls)
		rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	}
}
