// Package store is a service's own Redis store: plain forwarders, one of
// which takes the caller's SetArgs whole. Nothing here is a lock; what
// the callers pass decides.
package store

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Store struct{ client *redis.Client }

func (r *Store) Set(ctx context.Context, key string, value any, ttl time.Duration) error {
	if err := r.client.Set(ctx, key, value, ttl).Err(); err != nil {
		return err
	}
	return nil
}

// Delete deletes cache keys and, for its callers, locks.
func (r *Store) Delete(ctx context.Context, keys ...string) error {
	err := r.client.Del(ctx, keys...).Err()
	if err != nil {
		return err
	}
	return nil
}

// Hold writes with the caller's SetArgs: NX and a TTL, when they ask.
func (r *Store) Hold(ctx context.Context, key string, value any, args redis.SetArgs) error {
	err := r.client.SetArgs(ctx, key, value, args).Err()
	if err != nil {
		return err
	}
	return nil
}
