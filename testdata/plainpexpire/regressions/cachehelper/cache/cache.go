// Package cache is a service's package-level Redis helpers: each takes
// a key, prefixes it, and runs one command on the package's client or on
// the pipeline or transaction it is given.
package cache

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	client redis.UniversalClient
	ctx    = context.Background()

	ErrDBNotInit = errors.New("redis client not init")
)

const prefix = "daemon"

func Init(opts *redis.Options) { client = redis.NewClient(opts) }

func getCmdable(context ...redis.Cmdable) redis.Cmdable {
	if len(context) > 0 {
		return context[0]
	}
	return client
}

func serialKey(key string) string { return prefix + ":" + key }

func SetNX(key string, value any, ttl time.Duration, context ...redis.Cmdable) (bool, error) {
	if client == nil {
		return false, ErrDBNotInit
	}
	return getCmdable(context...).SetNX(ctx, serialKey(key), value, ttl).Result()
}

func Expire(key string, ttl time.Duration, context ...redis.Cmdable) (bool, error) {
	if client == nil {
		return false, ErrDBNotInit
	}
	return getCmdable(context...).Expire(ctx, serialKey(key), ttl).Result()
}

func Store(key string, value any, ttl time.Duration, context ...redis.Cmdable) error {
	if client == nil {
		return ErrDBNotInit
	}
	return getCmdable(context...).Set(ctx, serialKey(key), value, ttl).Err()
}
