// Package lock is a service's own lock whose Lock reports a held lock as
// an error it makes on the spot: no variable names it, so every error of
// Lock may be the held lock's.
package lock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

type RedisLock struct {
	rdb *redis.Client
	ctx context.Context
}

func New(rdb *redis.Client) *RedisLock { return &RedisLock{rdb: rdb, ctx: context.Background()} }

func (l *RedisLock) Lock(key string, ttl time.Duration) (string, error) {
	id := uuid.NewString()
	ok, err := l.rdb.SetNX(l.ctx, key, id, ttl).Result()
	if err != nil {
		return "", fmt.Errorf("setnx: %w", err)
	}
	if !ok {
		return "", errors.New("key is locked by another client")
	}
	return id, nil
}

func (l *RedisLock) Unlock(key, id string) error {
	return unlock.Run(l.ctx, l.rdb, []string{key}, id).Err()
}

// MarkSeen records a message id once; a duplicate is an error. The key
// is a record, not a lock: nothing releases it.
func (l *RedisLock) MarkSeen(id string) error {
	ok, err := l.rdb.SetNX(l.ctx, "seen:"+id, 1, time.Hour).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("duplicate")
	}
	return nil
}
