// Package data implements biz.Repo with Redis, and a decorator that
// forwards to another repository and says nothing of its own.
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

// Logged wraps another repository and forwards to it: it says nothing of
// its own about what a call sends.
type Logged struct {
	Inner interface {
		Lock(key string, ttl time.Duration) (bool, error)
		UnLock(key string) error
		Save(id string, verdict string) error
	}
	Log func(string)
}

func (l Logged) Lock(key string, ttl time.Duration) (bool, error) {
	return l.Inner.Lock(key, ttl)
}

func (l Logged) UnLock(key string) error {
	return l.Inner.UnLock(key)
}

func (l Logged) Save(id, verdict string) error {
	l.Log(id)
	return l.Inner.Save(id, verdict)
}
