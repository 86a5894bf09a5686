// Package lockfunc pins acquires with no expiry in functions that are
// locks by their name, not by their key's.
package lockfunc

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func AcquireLock(ctx context.Context, rdb *redis.Client, key, token string) bool {
	return rdb.SetNX(ctx, key, token, 0).Val() // want "lock key `key` \\(key of `AcquireLock`\\) acquired with no expiry"
}

// Near miss: a first-writer-wins marker with no lock in its name or its
// function's.
func claimUsername(ctx context.Context, rdb *redis.Client, key, owner string) bool {
	return rdb.SetNX(ctx, key, owner, 0).Val()
}
