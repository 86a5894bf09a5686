// Package cache is the service's Redis wrapper and the interface the
// game services hold (Culturae's infrastructure/cache).
package cache

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type RedisClientInterface interface {
	Get(ctx context.Context, key string) (string, error)
	SetNX(ctx context.Context, key string, value interface{}, ttl time.Duration) (bool, error)
	Delete(ctx context.Context, key string) error
	RPush(ctx context.Context, key string, values ...interface{}) error
	LRem(ctx context.Context, key string, count int64, value interface{}) error
}

type RedisClient struct{ c *redis.Client }

func (r *RedisClient) Get(ctx context.Context, key string) (string, error) {
	return r.c.Get(ctx, key).Result()
}

func (r *RedisClient) SetNX(ctx context.Context, key string, value interface{}, ttl time.Duration) (bool, error) {
	return r.c.SetNX(ctx, key, value, ttl).Result()
}

func (r *RedisClient) Delete(ctx context.Context, key string) error {
	return r.c.Del(ctx, key).Err()
}

func (r *RedisClient) RPush(ctx context.Context, key string, values ...interface{}) error {
	return r.c.RPush(ctx, key, values...).Err()
}

func (r *RedisClient) LRem(ctx context.Context, key string, count int64, value interface{}) error {
	return r.c.LRem(ctx, key, count, value).Err()
}
