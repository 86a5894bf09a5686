// Package lock is a service's lock port with two implementations: the
// Redis one, which releases under the context it is given, and an
// in-memory fallback for when Redis is not configured, which sends
// nothing (wallet-management's internal/lock). Nothing here is a finding.
package lock

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

type Locker interface {
	Acquire(ctx context.Context, name string, ttl time.Duration) (string, bool, error)
	Release(ctx context.Context, name, token string) error // want Release:"releases under parameter 0"
}

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

type RedisLocker struct{ c *redis.Client }

func NewRedis(c *redis.Client) *RedisLocker { return &RedisLocker{c: c} }

func (l *RedisLocker) Acquire(ctx context.Context, name string, ttl time.Duration) (string, bool, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", false, err
	}
	token := hex.EncodeToString(b)
	ok, err := l.c.SetNX(ctx, "lock:"+name, token, ttl).Result()
	return token, ok, err
}

func (l *RedisLocker) Release(ctx context.Context, name, token string) error { // want Release:"releases under parameter 0"
	return release.Run(ctx, l.c, []string{"lock:" + name}, token).Err()
}

// MemLocker is a process-local fallback.
type MemLocker struct {
	mu    sync.Mutex
	locks map[string]string
}

func (l *MemLocker) Acquire(_ context.Context, name string, _ time.Duration) (string, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, held := l.locks[name]; held {
		return "", false, nil
	}
	l.locks[name] = name
	return name, true, nil
}

func (l *MemLocker) Release(_ context.Context, name, token string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.locks[name] == token {
		delete(l.locks, name)
	}
	return nil
}

// Store has two implementations that both send commands; a call through
// it may be either, so nothing is assumed of it.
type Store interface {
	Release(ctx context.Context, name, token string) error
}

type primary struct{ c *redis.Client }

func (p primary) Release(ctx context.Context, name, token string) error { // want Release:"releases under parameter 0"
	return release.Run(ctx, p.c, []string{"lock:" + name}, token).Err()
}

type detached struct{ c *redis.Client }

func (d detached) Release(ctx context.Context, name, token string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	return release.Run(ctx, d.c, []string{"lock:" + name}, token).Err()
}
