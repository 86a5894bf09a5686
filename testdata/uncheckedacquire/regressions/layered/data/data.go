// Package data implements biz.Repo with Redis.
package data

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Repo struct {
	rdb *redis.Client
}

func NewRepo(rdb *redis.Client) *Repo { return &Repo{rdb: rdb} }

func (r *Repo) Lock(key string, ttl time.Duration) (bool, error) {
	return r.rdb.SetNX(context.Background(), key, "locked", ttl).Result()
}

func (r *Repo) UnLock(key string) error {
	return r.rdb.Del(context.Background(), key).Err()
}

func (r *Repo) Save(id, verdict string) error {
	return r.rdb.Set(context.Background(), "verdict:"+id, verdict, time.Hour).Err()
}
