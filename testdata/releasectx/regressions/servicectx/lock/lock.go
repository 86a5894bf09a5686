// Package lock is a service's own lock: TryLock stores a token with
// SET NX and a TTL, and Unlock deletes the key with a compare-and-delete
// script under the context it is given.
package lock

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

// Locker is what the services hold; RedisLock is its one implementation.
type Locker interface {
	TryLock(ctx context.Context, key string, ttl time.Duration) (bool, error)
	Unlock(ctx context.Context, key string) error // want Unlock:"releases under parameter 0"
}

type RedisLock struct {
	rdb    *redis.Client
	tokens map[string]string
}

func New(rdb *redis.Client) *RedisLock { return &RedisLock{rdb: rdb, tokens: map[string]string{}} }

func (l *RedisLock) TryLock(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	token := uuid.NewString()
	ok, err := l.rdb.SetNX(ctx, key, token, ttl).Result()
	if ok {
		l.tokens[key] = token
	}
	return ok, err
}

func (l *RedisLock) Unlock(ctx context.Context, key string) error { // want Unlock:"releases under parameter 0"
	return unlock.Run(ctx, l.rdb, []string{key}, l.tokens[key]).Err()
}
