// Package datawrapper pins a typed-key data wrapper: one type holds a key
// and offers Put, PutIfAbsent and Get on it. Its SETNX is a write, not an
// acquire, so its plain SET is no renewal of a lock.
package datawrapper

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Str struct {
	rdb *redis.Client
	key string
}

func (s *Str) Put(ctx context.Context, v string) error {
	return s.rdb.Set(ctx, s.key, v, 0).Err()
}

func (s *Str) PutIfAbsent(ctx context.Context, v string) bool {
	return s.rdb.SetNX(ctx, s.key, v, time.Hour).Val()
}

func (s *Str) Get(ctx context.Context) string {
	return s.rdb.Get(ctx, s.key).Val()
}

// Must report: the same shape on a type that is a lock.
type Mutex struct {
	rdb *redis.Client
	key string
}

func (m *Mutex) TryLock(ctx context.Context, token string) bool {
	return m.rdb.SetNX(ctx, m.key, token, time.Minute).Val()
}

func (m *Mutex) Extend(ctx context.Context, token string) error {
	return m.rdb.Set(ctx, m.key, token, time.Minute).Err() // want "SET of lock key `m\\.key` without NX or IFEQ overwrites whoever holds it"
}
