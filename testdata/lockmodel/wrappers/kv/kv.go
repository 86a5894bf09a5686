// Package kv is a service's own Redis layer: its forwarders carry facts
// that make calls to them commands in the packages that call them.
package kv

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Store struct{ rdb *redis.Client }

func (s *Store) PutIfAbsent(ctx context.Context, key, v string, ttl time.Duration) bool {
	return s.rdb.SetNX(ctx, key, v, ttl).Val() // want `^SET key=key value=v ttl=ttl NX$`
}

func (s *Store) Remove(ctx context.Context, keys ...string) error {
	return s.rdb.Del(ctx, keys...).Err() // want `^DEL$`
}

// Not a forwarder: two commands.
func (s *Store) Swap(ctx context.Context, key, v string) {
	s.rdb.Del(ctx, key)       // want `^DEL key=key$`
	s.rdb.Set(ctx, key, v, 0) // want `^SET key=key value=v ttl=none$`
}
