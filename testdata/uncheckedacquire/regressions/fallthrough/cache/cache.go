// Package cache is a platform's Redis store: Lock retries a SETNX of a
// constant a bounded number of times and returns whether it took the key,
// Unlock deletes it.
package cache

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Store is what the services are given.
type Store interface {
	Lock(key string, expiration time.Duration, retryWaitMillis, retryCount int) (bool, error)
	Unlock(key string) error
	Enqueue(queue string, v string) error
}

type RedisStore struct {
	Client *redis.Client
}

var _ Store = (*RedisStore)(nil)

func (s *RedisStore) Lock(key string, expiration time.Duration, retryWaitMillis, retryCount int) (bool, error) {
	var res bool
	var err error
	for i := 0; i < retryCount; i++ {
		res, err = s.Client.SetNX(context.Background(), key, "true", expiration).Result()
		if err == nil && res {
			break
		}
		time.Sleep(time.Duration(retryWaitMillis) * time.Millisecond)
	}
	return res, err
}

func (s *RedisStore) Unlock(key string) error {
	return s.Client.Del(context.Background(), key).Err()
}

func (s *RedisStore) Enqueue(queue string, v string) error {
	return s.Client.RPush(context.Background(), queue, v).Err()
}
