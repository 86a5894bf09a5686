// Package cache is a chat bot's Redis helpers: a chat's processing lock
// taken with SETNX and given back with a plain DEL, each under the
// caller's context. Nothing here is a finding of releasectx.
package cache

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Cache struct{ client *redis.Client }

func (c *Cache) AcquireLock(ctx context.Context, chat int64, ttl time.Duration) (bool, error) {
	key := fmt.Sprintf("lock:chat:%d", chat)
	ok, err := c.client.SetNX(ctx, key, "locked", ttl).Result()
	if err != nil {
		return false, fmt.Errorf("acquire lock: %w", err)
	}
	return ok, nil
}

func (c *Cache) ReleaseLock(ctx context.Context, chat int64) error { // want ReleaseLock:"releases under parameter 0"
	key := fmt.Sprintf("lock:chat:%d", chat)
	return c.client.Del(ctx, key).Err()
}
