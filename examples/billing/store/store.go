// Package store is the billing service's own Redis layer: handlers depend
// on the Redis interface (so tests can fake it) and on Client, whose
// methods forward to go-redis under names of the service's choosing.
// Nothing here says "lock"; the callers' keys do.
package store

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is the part of go-redis the handlers use.
type Redis interface {
	SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *redis.BoolCmd
	Get(ctx context.Context, key string) *redis.StringCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

// Client wraps a go-redis client.
type Client struct{ rdb *redis.Client }

// New returns a Client over rdb.
func New(rdb *redis.Client) *Client { return &Client{rdb: rdb} }

// PutIfAbsent stores v under key unless the key exists.
func (c *Client) PutIfAbsent(ctx context.Context, key, v string, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, key, v, ttl).Result()
}

// Remove deletes keys.
func (c *Client) Remove(ctx context.Context, keys ...string) error {
	return c.rdb.Del(ctx, keys...).Err()
}

// Touch resets key's TTL.
func (c *Client) Touch(ctx context.Context, key string, ttl time.Duration) error {
	return c.rdb.PExpire(ctx, key, ttl).Err()
}

// Locker takes named locks for the handlers.
type Locker struct{ rdb *redis.Client }

// NewLocker returns a Locker over rdb.
func NewLocker(rdb *redis.Client) *Locker { return &Locker{rdb: rdb} }

// TryLock takes key for ttl.
func (l *Locker) TryLock(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	// Every holder stores "locked"; Unlock's finding names it.
	return l.rdb.SetNX(ctx, key, "locked", ttl).Result()
}

// Unlock releases key.
func (l *Locker) Unlock(ctx context.Context, key string) error {
	return l.rdb.Del(ctx, key).Err() // BUG(unconditionaldel): deletes whoever holds key now, and "locked" could not tell holders apart
}
