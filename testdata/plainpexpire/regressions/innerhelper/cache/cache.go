// Package cache is a service's package-level Redis helpers: each exported
// helper takes a key, prefixes it, and runs one command itself or through
// an unexported helper that takes the key already prefixed.
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

func serialKey(keys ...string) string {
	k := prefix
	for _, s := range keys {
		k += ":" + s
	}
	return k
}

func Store(key string, value any, ttl time.Duration, context ...redis.Cmdable) error {
	return store(serialKey(key), value, ttl, context...)
}

// store writes a key already prefixed.
func store(key string, value any, ttl time.Duration, context ...redis.Cmdable) error {
	if client == nil {
		return ErrDBNotInit
	}
	return getCmdable(context...).Set(ctx, key, value, ttl).Err()
}

func Get[T ~string](key string, context ...redis.Cmdable) (T, error) {
	return get[T](serialKey(key), context...)
}

func get[T ~string](key string, context ...redis.Cmdable) (T, error) {
	if client == nil {
		return "", ErrDBNotInit
	}
	v, err := getCmdable(context...).Get(ctx, key).Result()
	return T(v), err
}

func Del(key string, context ...redis.Cmdable) (int64, error) {
	return del(serialKey(key), context...)
}

func del(key string, context ...redis.Cmdable) (int64, error) {
	if client == nil {
		return 0, ErrDBNotInit
	}
	return getCmdable(context...).Del(ctx, key).Result()
}

// AutoDel deletes a key of the kind's own namespace.
func AutoDel(kind, key string, context ...redis.Cmdable) (int64, error) {
	key = serialKey("auto", kind, key)
	return del(key, context...)
}

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
