// Package uncomparedread pins the wording of a renewal that follows a GET
// of the same lock key whose reply decides nothing (it is logged): the
// EXPIRE extends whoever holds the key, with no owner check at all. A
// GET that is compared keeps the two-round-trip wording.
package uncomparedread

import (
	"context"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

func acquire(ctx context.Context, rdb *redis.Client, token string) bool {
	return rdb.SetNX(ctx, "lock:export", token, 30*time.Second).Val()
}

func keepAlive(ctx context.Context, rdb *redis.Client) {
	log.Printf("extending lock held by %s", rdb.Get(ctx, "lock:export").Val())
	rdb.Expire(ctx, "lock:export", 30*time.Second) // want "EXPIRE of lock key `\"lock:export\"` without an owner check"
}

func keepAliveChecked(ctx context.Context, rdb *redis.Client, token string) {
	if rdb.Get(ctx, "lock:export").Val() == token {
		rdb.Expire(ctx, "lock:export", 30*time.Second) // want "GET on line 25 and this EXPIRE of lock key `\"lock:export\"` are two round trips"
	}
}
