// Package cache is a service's Redis layer: its AcquireLock takes a key
// with SET NX and hands back a release that runs a compare-and-delete
// script under the context the acquire was given.
package cache

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrLockNotAcquired = errors.New("lock not acquired")

var unlock = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

type Client struct {
	rdb *redis.Client
}

func (c *Client) AcquireLock(ctx context.Context, key, value string, ttl time.Duration) (func() error, error) { // want AcquireLock:"hands back a release bound to parameter 0"
	ok, err := c.rdb.SetNX(ctx, key, value, ttl).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrLockNotAcquired
	}
	release := func() error {
		return unlock.Run(ctx, c.rdb, []string{key}, value).Err()
	}
	return release, nil
}
