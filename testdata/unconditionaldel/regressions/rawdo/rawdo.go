// Package rawdo releases locks with go-redis's generic Do.
package rawdo

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func release(ctx context.Context, rdb *redis.Client, job string) error {
	return rdb.Do(ctx, "DEL", "lock:"+job).Err() // want "DEL of lock key `\"lock:\" \\+ job` without an owner check"
}

// Near miss: a cache entry is not a lock.
func evict(ctx context.Context, rdb *redis.Client, id string) error {
	return rdb.Do(ctx, "DEL", "cache:"+id).Err()
}

// Near miss: the owner check and the delete in one server-side step.
func releaseOwned(ctx context.Context, rdb *redis.Client, job, token string) error {
	return rdb.Do(ctx, "DELEX", "lock:"+job, "IFEQ", token).Err()
}
