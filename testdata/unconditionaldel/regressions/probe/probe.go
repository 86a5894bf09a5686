// Package probe pins a connectivity probe: a constructor writes a
// scratch key with SETNX and a TTL of a millisecond and deletes it at
// once, to learn that the server answers writes. Nothing runs while the
// key is there, so it guards nothing: no lock, and its DEL no release.
// The near miss does work between the two.
package probe

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func Open(ctx context.Context, addr string) (*redis.Client, error) {
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	rdb.SetNX(ctx, "setup", 1, time.Millisecond)
	if err := rdb.Del(ctx, "setup").Err(); err != nil {
		return nil, err
	}
	return rdb, nil
}

func Lock(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) {
	return rdb.SetNX(ctx, "lock:"+key, token, 10*time.Second).Result()
}

// Near miss (reported): the job runs while the key is held.
func Migrate(ctx context.Context, rdb *redis.Client, run func()) error {
	rdb.SetNX(ctx, "migrate", 1, time.Minute)
	run()
	return rdb.Del(ctx, "migrate").Err() // want `DEL of lock key`
}
