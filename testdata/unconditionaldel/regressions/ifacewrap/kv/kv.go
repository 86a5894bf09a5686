// Package kv is a service's own storage interface with its Redis
// implementation behind a constructor: callers in other packages hold a
// Store and never see go-redis. Its methods have an order of their own
// (the TTL before the value).
package kv

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Store is what the service's code depends on.
type Store interface {
	PutIfAbsent(ctx context.Context, key string, ttl time.Duration, value string) (bool, error)
	Remove(ctx context.Context, key string) error
}

type redisStore struct{ rdb *redis.Client }

// New returns the Redis Store, the package's only one.
func New(rdb *redis.Client) Store { return &redisStore{rdb} }

func (s *redisStore) PutIfAbsent(ctx context.Context, key string, ttl time.Duration, value string) (bool, error) {
	return s.rdb.SetNX(ctx, key, value, ttl).Result()
}

func (s *redisStore) Remove(ctx context.Context, key string) error {
	return s.rdb.Del(ctx, key).Err()
}

// Flags has two implementations, Redis and in-memory (for tests): the
// Redis one takes the calls that matter.
type Flags interface {
	Raise(ctx context.Context, key string, ttl time.Duration) (bool, error)
	Lower(ctx context.Context, key string) error
}

type redisFlags struct{ rdb *redis.Client }

func (f redisFlags) Raise(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	return f.rdb.SetNX(ctx, key, "1", ttl).Result()
}

func (f redisFlags) Lower(ctx context.Context, key string) error { return f.rdb.Del(ctx, key).Err() }

type memFlags struct {
	mu sync.Mutex
	m  map[string]bool
}

func (f *memFlags) Raise(_ context.Context, key string, _ time.Duration) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m[key] {
		return false, nil
	}
	f.m[key] = true
	return true, nil
}

func (f *memFlags) Lower(_ context.Context, key string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.m, key)
	return nil
}

// NewFlags picks the implementation.
func NewFlags(rdb *redis.Client) Flags {
	if rdb == nil {
		return &memFlags{m: map[string]bool{}}
	}
	return redisFlags{rdb}
}

// Marks has two Redis implementations that send different commands for
// Clear: a call of it is not known to be a DEL.
type Marks interface {
	Clear(ctx context.Context, key string) error
}

type delMarks struct{ rdb *redis.Client }

func (m delMarks) Clear(ctx context.Context, key string) error { return m.rdb.Del(ctx, key).Err() }

type expireMarks struct{ rdb *redis.Client }

func (m expireMarks) Clear(ctx context.Context, key string) error {
	return m.rdb.Expire(ctx, key, time.Second).Err()
}

// NewMarks picks one.
func NewMarks(rdb *redis.Client, soft bool) Marks {
	if soft {
		return expireMarks{rdb}
	}
	return delMarks{rdb}
}
