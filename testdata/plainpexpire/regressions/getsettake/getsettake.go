// Package getsettake pins a lock taken with GETSET of 1, an empty old
// value read as "taken", and given its TTL by a separate EXPIRE. The
// GETSET overwrites whoever holds the key and drops its TTL: reported.
// The EXPIRE after it runs only for the caller that found the key empty
// and gives the take its TTL: the split is setnxexpire's finding, not a
// renewal here, silent.
package getsettake

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

func seed(context.Context) error { return nil }

func Ensure(ctx context.Context, rdb *redis.Client, counter string) error {
	lockKey := counter + "-lock"
	old, err := rdb.GetSet(ctx, lockKey, 1).Result() // want "GETSET of lock key `lockKey` without NX overwrites whoever holds it"
	if err != nil && err != redis.Nil {
		return err
	}
	if old != "" {
		return errors.New("locked")
	}
	if err := rdb.Expire(ctx, lockKey, 5*time.Second).Err(); err != nil {
		return err
	}
	defer rdb.Del(ctx, lockKey)
	return seed(ctx)
}
