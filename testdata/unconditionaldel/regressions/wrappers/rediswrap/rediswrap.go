// Package rediswrap is a service's own Redis package: an interface with
// go-redis's method signatures, a struct whose methods forward to
// go-redis, package functions over a shared client, and a redigo helper.
// Nothing here is a lock; what the callers pass decides.
package rediswrap

import (
	"context"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
)

// Client is what the service's code depends on, so that tests can fake it.
type Client interface {
	SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *goredis.BoolCmd
	Del(ctx context.Context, keys ...string) *goredis.IntCmd
	Expire(ctx context.Context, key string, expiration time.Duration) *goredis.BoolCmd
	Get(ctx context.Context, key string) *goredis.StringCmd
}

// Store forwards to go-redis with signatures of its own.
type Store struct{ rdb *goredis.Client }

func (s *Store) SetIfAbsent(ctx context.Context, key string, v any, ttl time.Duration) (bool, error) {
	return s.rdb.SetNX(ctx, key, v, ttl).Result()
}

func (s *Store) Remove(ctx context.Context, keys ...string) error {
	return s.rdb.Del(ctx, keys...).Err()
}

func (s *Store) Touch(ctx context.Context, key string, ttl time.Duration) error {
	return s.rdb.Expire(ctx, key, ttl).Err()
}

var shared *goredis.Client

// Delete is a package function over the shared client.
func Delete(ctx context.Context, key string) error {
	return shared.Del(ctx, key).Err()
}

// delete2 wraps a wrapper.
func Forget(ctx context.Context, key string) error {
	return Delete(ctx, key)
}

// Pool wraps a redigo pool.
type Pool struct{ p *redis.Pool }

func (p *Pool) SetNXEx(key, value string, seconds int) (bool, error) {
	conn := p.p.Get()
	defer conn.Close()
	r, err := redis.String(conn.Do("SET", key, value, "NX", "EX", seconds))
	return r == "OK", err
}

func (p *Pool) Del(key string) error {
	conn := p.p.Get()
	defer conn.Close()
	_, err := conn.Do("DEL", key)
	return err
}
