// Package redisop is a service's own layer over its Redis client: one
// method per command, each forwarding its arguments.
package redisop

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Op struct {
	rdb     *redis.Client
	release Releaser
}

// Releaser frees a key; its implementations live elsewhere.
type Releaser interface {
	Note(ctx context.Context, key string) error
}

func New(rdb *redis.Client, r Releaser) *Op { return &Op{rdb: rdb, release: r} }

func (o *Op) SetNx(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	return o.rdb.SetNX(ctx, key, value, ttl).Result()
}

func (o *Op) Del(ctx context.Context, key string) error {
	return o.rdb.Del(ctx, key).Err()
}

// Unlock deletes key when it still holds value; the model does not read
// the script's body through this layer.
func (o *Op) Unlock(ctx context.Context, key string, value any) error {
	return o.rdb.Eval(ctx, unlockScript, []string{key}, value).Err()
}

// Forget hands the key to the releaser, out of the model's sight.
func (o *Op) Forget(ctx context.Context, key string) error {
	return o.release.Note(ctx, key)
}

var unlockScript = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`
