// Package store is a service's own layer over a cluster client: a
// Repository that takes contexts and a Service over it that does not.
// Callers in other packages hold the interfaces only.
package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"
)

type Repository interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error)
	Del(ctx context.Context, key string) error
	Get(ctx context.Context, key string) (string, error)
}

type Service interface {
	SetNX(key string, value any, ttl time.Duration) (bool, error)
	Del(key string) error
	Get(key string) (string, error)
}

type repository struct{ cluster *redis.ClusterClient }

func (r *repository) SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	b, err := json.Marshal(value)
	if err != nil {
		return false, err
	}
	return r.cluster.SetNX(ctx, key, string(b), ttl).Result()
}

func (r *repository) Del(ctx context.Context, key string) error {
	return r.cluster.Del(ctx, key).Err()
}

func (r *repository) Get(ctx context.Context, key string) (string, error) {
	return r.cluster.Get(ctx, key).Result()
}

type service struct{ repo Repository }

func (s *service) SetNX(key string, value any, ttl time.Duration) (bool, error) {
	return s.repo.SetNX(context.Background(), key, value, ttl)
}

func (s *service) Del(key string) error { return s.repo.Del(context.Background(), key) }

func (s *service) Get(key string) (string, error) { return s.repo.Get(context.Background(), key) }

func NewService(cluster *redis.ClusterClient) Service {
	return &service{repo: &repository{cluster: cluster}}
}
