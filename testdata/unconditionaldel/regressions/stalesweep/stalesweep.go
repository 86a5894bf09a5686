// Package stalesweep pins a clean-up that deletes the lock keys a scan
// finds with no expiry (TTL -1, or -2 for a key already gone), in a
// package whose every acquire sets a TTL: no holder's key lacks one, so
// the DEL removes only a leftover. The near miss deletes keys that are
// about to expire, which live holders still hold.
package stalesweep

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type DistributedLock struct {
	client *redis.Client
	prefix string
}

func (r *DistributedLock) Lock(ctx context.Context, name, token string) (bool, error) {
	return r.client.SetNX(ctx, r.prefix+name, token, 30*time.Second).Result()
}

// Near miss (silent): only keys with no expiry go.
func (r *DistributedLock) CleanupExpiredLocks(ctx context.Context) error {
	var cursor uint64
	for {
		keys, next, err := r.client.Scan(ctx, cursor, r.prefix+"*", 100).Result()
		if err != nil {
			return err
		}
		for _, key := range keys {
			ttl, err := r.client.TTL(ctx, key).Result()
			if err != nil {
				continue
			}
			if ttl == -1 || ttl == -2 {
				r.client.Del(ctx, key)
			}
		}
		if cursor = next; cursor == 0 {
			return nil
		}
	}
}

// Must report: a key a second from its end is still a holder's lock.
func (r *DistributedLock) CleanupExpiringLocks(ctx context.Context, keys []string) {
	for _, key := range keys {
		ttl, err := r.client.TTL(ctx, key).Result()
		if err == nil && ttl < time.Second {
			r.client.Del(ctx, key) // want "DEL of lock key `key` .key of `..DistributedLock..CleanupExpiringLocks`. without an owner check"
		}
	}
}
