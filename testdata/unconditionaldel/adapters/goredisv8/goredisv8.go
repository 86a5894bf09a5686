// Package goredisv8 releases go-redis v8 locks: the fix calls the core's
// Release with the client made a lock.Client by fixgoredis8.
package goredisv8

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

func rebuild(ctx context.Context, rdb *redis.Client, token string) error {
	if !rdb.SetNX(ctx, "lock:feed", token, time.Minute).Val() {
		return nil
	}
	defer rdb.Del(ctx, "lock:feed") // want "DEL of lock key `\"lock:feed\"` without an owner check; release with `lock\\.Release` via `fixgoredis8\\.Client` \\(DELEX IFEQ or compare-and-delete\\)"
	return nil
}

func withErr(ctx context.Context, rdb redis.UniversalClient, id, token string) error {
	key := "lock:job:" + id
	if err := rdb.SetNX(ctx, key, token, time.Minute).Err(); err != nil {
		return err
	}
	return rdb.Del(ctx, key).Err() // want "DEL of lock key `key` without an owner check; release with `lock\\.Release` via `fixgoredis8\\.Client`"
}

// A local variable named lock shadows the core's package name where the
// fix would write it: the finding stands, with no fix.
func shadowed(ctx context.Context, rdb *redis.ClusterClient, token string) error {
	lock := "lock:report"
	if !rdb.SetNX(ctx, lock, token, time.Minute).Val() {
		return nil
	}
	return rdb.Del(ctx, lock).Err() // want "DEL of lock key `lock` without an owner check; release with `lock\\.Release` via `fixgoredis8\\.Client`"
}

// Near miss: a Cmdable is narrower than the UniversalClient the adapter
// takes, so the finding has no fix.
func narrow(ctx context.Context, rdb redis.Cmdable, token string) error {
	if !rdb.SetNX(ctx, "lock:narrow", token, time.Minute).Val() {
		return nil
	}
	return rdb.Del(ctx, "lock:narrow").Err() // want "DEL of lock key `\"lock:narrow\"` without an owner check; release with `lock\\.Release` via `fixgoredis8\\.Client`"
}
