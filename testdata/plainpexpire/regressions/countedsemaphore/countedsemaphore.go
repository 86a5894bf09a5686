// Package countedsemaphore pins a counting semaphore: permits taken with
// INCR and given back with DECR on one shared key. The key has no single
// owner, so no owner check can guard its TTL, and refreshing it is no
// renewal of a lock. The twin lock is taken with SET NX and a token, and
// its plain EXPIRE extends whoever holds it.
package countedsemaphore

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Semaphore struct {
	rdb  *redis.Client
	key  string
	size int64
	ttl  time.Duration
}

func (s *Semaphore) TryAcquire(ctx context.Context) bool {
	n, err := s.rdb.Incr(ctx, s.key).Result()
	if err != nil {
		return false
	}
	if n == 1 {
		s.rdb.Expire(ctx, s.key, s.ttl)
	}
	if n > s.size {
		s.rdb.Decr(ctx, s.key)
		return false
	}
	s.rdb.Expire(ctx, s.key, s.ttl)
	return true
}

func (s *Semaphore) Release(ctx context.Context) { s.rdb.Decr(ctx, s.key) }

type Mutex struct {
	rdb   *redis.Client
	key   string
	token string
	ttl   time.Duration
}

func (m *Mutex) TryLock(ctx context.Context) bool {
	return m.rdb.SetNX(ctx, m.key, m.token, m.ttl).Val()
}

func (m *Mutex) Extend(ctx context.Context) {
	m.rdb.Expire(ctx, m.key, m.ttl) // want "EXPIRE of lock key `m.key` without an owner check"
}
