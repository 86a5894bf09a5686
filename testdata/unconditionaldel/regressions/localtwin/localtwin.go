// Package localtwin pins a lock with an in-process twin: with no client,
// AcquireLock and ReleaseLock fall back to a sync.Mutex looked up by the
// same key; with one, ReleaseLock deletes the key whoever holds it. The
// mutex is the lock's own, not a handle that makes the key data. The
// near miss deletes a cache entry under a mutex of its own.
package localtwin

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

var localLocks sync.Map

func AcquireLock(ctx context.Context, client *redis.Client, key string, ttl time.Duration) (bool, error) {
	if client == nil {
		l, _ := localLocks.LoadOrStore(key, &sync.Mutex{})
		return l.(*sync.Mutex).TryLock(), nil
	}
	return client.SetNX(ctx, key, 1, ttl).Result()
}

// Must report: the fallback unlocks the twin; the client's path is a
// plain DEL.
func ReleaseLock(ctx context.Context, client *redis.Client, key string) error {
	if client == nil {
		if l, ok := localLocks.Load(key); ok {
			l.(*sync.Mutex).Unlock()
		}
		return nil
	}
	return client.Del(ctx, key).Err() // want "DEL of lock key `key` \\(key of `ReleaseLock`\\) without an owner check"
}

type Cache struct {
	mu  sync.Mutex
	rdb *redis.Client
}

// Silent: a cache entry deleted under the cache's own mutex, which says
// nothing of the key.
func (c *Cache) DeleteLocked(ctx context.Context, key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rdb.Del(ctx, key).Err()
}
