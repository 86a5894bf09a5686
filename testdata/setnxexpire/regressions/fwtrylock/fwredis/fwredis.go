// Package fwredis stands for a service framework's Redis helpers: a
// process-global client, TryLock with the caller's expiry (none when it
// is 0) and a plain Unlock.
package fwredis

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis/v8"
)

var cli *redis.Client

func TryLock(key string, expire time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	locked, err := cli.SetNX(ctx, key, 1, expire).Result()
	if err != nil {
		return err
	}
	if !locked {
		return errors.New("fail lock " + key)
	}
	return nil
}

func Unlock(key string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return cli.Del(ctx, key).Err()
}
