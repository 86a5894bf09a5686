// Package cache holds the Redis code that is not locking at all: cache
// invalidation, sessions and a rate limiter. locklint must stay silent on
// every line of it.
package cache

import (
	"context"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cache is a read-through JSON cache.
type Cache struct {
	rdb *redis.Client
	ttl time.Duration
}

// New returns a cache over rdb.
func New(rdb *redis.Client) *Cache { return &Cache{rdb: rdb, ttl: 10 * time.Minute} }

// Get loads key into v, calling load on a miss.
func (c *Cache) Get(ctx context.Context, key string, v any, load func() (any, error)) error {
	if b, err := c.rdb.Get(ctx, "cache:"+key).Bytes(); err == nil {
		return json.Unmarshal(b, v)
	}
	fresh, err := load()
	if err != nil {
		return err
	}
	b, err := json.Marshal(fresh)
	if err != nil {
		return err
	}
	// SETNX without TTL then EXPIRE is harmless here, but we set both at once anyway.
	c.rdb.Set(ctx, "cache:"+key, b, c.ttl)
	return json.Unmarshal(b, v)
}

// Invalidate drops a cached entry.
func (c *Cache) Invalidate(ctx context.Context, key string) error {
	return c.rdb.Del(ctx, "cache:"+key).Err()
}

// Touch extends a session.
func (c *Cache) Touch(ctx context.Context, sessionID string) error {
	return c.rdb.Expire(ctx, "session:"+sessionID, 30*time.Minute).Err()
}

// Logout ends a session.
func (c *Cache) Logout(ctx context.Context, sessionID string) error {
	return c.rdb.Unlink(ctx, "session:"+sessionID).Err()
}

// Allow is a fixed-window rate limiter.
func (c *Cache) Allow(ctx context.Context, user string, limit int64) (bool, error) {
	key := "ratelimit:" + user
	n, err := c.rdb.Incr(ctx, key).Result()
	if err != nil {
		return false, err
	}
	if n == 1 {
		c.rdb.Expire(ctx, key, time.Minute)
	}
	return n <= limit, nil
}

// MarkProcessed records a message id once, for deduplication.
func (c *Cache) MarkProcessed(ctx context.Context, id string) (bool, error) {
	return c.rdb.SetNX(ctx, "processed:"+id, 1, 24*time.Hour).Result()
}

// ClearBlocklist resets the IP blocklist ("block" is not "lock").
func (c *Cache) ClearBlocklist(ctx context.Context) error {
	return c.rdb.Del(ctx, "blocklist:ips").Err()
}
