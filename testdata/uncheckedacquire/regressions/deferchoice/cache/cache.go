// Package cache is a module's own lock helper: a miss returns
// ErrLockNotAcquired, and no client returns ErrRedisUnavailable.
package cache

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var (
	ErrLockNotAcquired  = errors.New("lock not acquired")
	ErrRedisUnavailable = errors.New("redis not available")
)

var client *redis.Client

var releaseScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("DEL", KEYS[1])
end
return 0
`)

func AcquireLock(ctx context.Context, resource string, ttl time.Duration) (string, error) {
	if client == nil {
		return "", ErrRedisUnavailable
	}
	token := uuid.New().String()
	ok, err := client.SetNX(ctx, "lock:"+resource, token, ttl).Result()
	if err != nil {
		return "", err
	}
	if !ok {
		return "", ErrLockNotAcquired
	}
	return token, nil
}

func ReleaseLock(ctx context.Context, resource, token string) error {
	if client == nil {
		return ErrRedisUnavailable
	}
	return releaseScript.Run(ctx, client, []string{"lock:" + resource}, token).Err()
}
