// Package undoonfailure pins a dedupe marker taken with SETNX and deleted
// on purpose when the work fails, so that a later delivery may retry: on
// success the key stays until its TTL. That is no release of a lock held
// across work. The twin releases the same key after the work on every
// path: a lock, and its DEL has no owner check.
package undoonfailure

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func deliverOnce(ctx context.Context, rdb *redis.Client, id, token string, publish func() error) error {
	key := "dedupe:lock:" + id
	if !rdb.SetNX(ctx, key, token, 24*time.Hour).Val() {
		return nil
	}
	if err := publish(); err != nil {
		rdb.Del(ctx, key)
		return err
	}
	return nil
}

func deliverLocked(ctx context.Context, rdb *redis.Client, id, token string, publish func() error) error {
	key := "deliver:lock:" + id
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return nil
	}
	err := publish()
	if err != nil {
		rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
		return err
	}
	rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	return nil
}
