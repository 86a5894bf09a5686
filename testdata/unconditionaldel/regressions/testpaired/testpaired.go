// Package testpaired pins generic command wrappers that only a test pairs:
// the package's SetNX and Del forward one command each for any key, and
// a test of the wrappers takes a key through one and deletes it through
// the other. A test that exercises wrappers says nothing of how the
// service uses them, so the wrapper's Del stays silent. The same pairing
// in the service's own code is a lock's take and drop.
package testpaired

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var client *redis.Client

// Del removes a key.
func Del(ctx context.Context, key string) error {
	client.Incr(ctx, "wrapper:dels")
	return client.Del(ctx, key).Err()
}

// SetNX sets a key only if it does not exist.
func SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	client.Incr(ctx, "wrapper:setnx")
	return client.SetNX(ctx, key, value, ttl).Result()
}

func jobKey(id string) string { return "job:" + id + ":running" }

func begin(ctx context.Context, id, token string) bool {
	client.Incr(ctx, "job:starts")
	return client.SetNX(ctx, jobKey(id), token, time.Minute).Val()
}

func end(ctx context.Context, id string) {
	client.Incr(ctx, "job:ends")
	client.Del(ctx, jobKey(id)) // want "DEL of lock key `jobKey\\(id\\)` \\(taken by `begin` and deleted by `end` in `run`\\) without an owner check"
}

func run(ctx context.Context, id, token string) {
	if !begin(ctx, id, token) {
		return
	}
	defer end(ctx, id)
}
