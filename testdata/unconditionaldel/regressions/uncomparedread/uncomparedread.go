// Package uncomparedread pins the wording of a DEL that follows a GET of
// the same lock key whose reply decides nothing: the value is printed or
// returned, so the DEL runs whoever holds the key. It has no owner check
// at all, not one in a separate round trip. A GET that is compared keeps
// the two-round-trip wording.
package uncomparedread

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// A job that shows who held the lock before it clears it.
func clearStale(ctx context.Context, rdb *redis.Client, token string) {
	if !rdb.SetNX(ctx, "lock:rebuild", token, time.Minute).Val() {
		return
	}
	holder := rdb.Get(ctx, "lock:rebuild").Val()
	fmt.Println("held by", holder)
	rdb.Del(ctx, "lock:rebuild") // want "DEL of lock key `\"lock:rebuild\"` without an owner check"
}

// The same lock, released after a compare: two round trips.
func releaseChecked(ctx context.Context, rdb *redis.Client, token string) {
	if rdb.Get(ctx, "lock:rebuild").Val() != token {
		return
	}
	rdb.Del(ctx, "lock:rebuild") // want "GET on line 28 and this DEL of lock key `\"lock:rebuild\"` are two round trips"
}
