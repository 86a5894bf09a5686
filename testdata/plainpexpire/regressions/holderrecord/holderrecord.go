// Package holderrecord pins the record a lock's holder writes beside the
// lock after winning it, "who holds it", on a key whose name says lock:
// a plain SET that only the holder makes, so overwriting it is the point.
// A plain SET of a lock key that no acquire precedes still reports.
package holderrecord

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func roomLock(room string) string   { return "game:lock:" + room }
func roomHolder(room string) string { return "game:lock:holder:" + room }

func enter(ctx context.Context, rdb *redis.Client, room, token, who string, ttl time.Duration) bool {
	if !rdb.SetNX(ctx, roomLock(room), token, ttl).Val() {
		return false
	}
	rdb.Set(ctx, roomHolder(room), token+"|"+who, ttl)
	return true
}

func holder(ctx context.Context, rdb *redis.Client, room string) string {
	return rdb.Get(ctx, roomHolder(room)).Val()
}

// No acquire before it: this SET is the lock, taken whoever holds it.
func grab(ctx context.Context, rdb *redis.Client, job, token string) {
	rdb.Set(ctx, "job:lock:"+job, token, time.Minute) // want "SET of lock key `\"job:lock:\" \\+ job` without NX overwrites whoever holds it"
}
