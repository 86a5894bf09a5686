// Package getsettake pins a rewards service's seeding lock: it takes
// "<counter>-lock" with GETSET of 1, reads an empty old value as "taken",
// gives the key its TTL with a separate EXPIRE, seeds the counter and
// deletes the lock. A crash between the GETSET and the EXPIRE leaves the
// lock with no TTL: reported at the take, with the EXPIRE beside it (and
// the GETSET's overwrite is plainpexpire's). The near miss writes a
// cache entry with GETSET and EXPIRE, and never compares what it read
// with the empty string: no take, silent.
package getsettake

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

func seed(context.Context, string) error { return nil }

// Must report: the take's TTL is a second command.
func Ensure(ctx context.Context, rdb *redis.Client, counter string) error {
	lockKey := fmt.Sprintf("%s-lock", counter)
	old, err := rdb.GetSet(ctx, lockKey, 1).Result() // want "GETSET and the EXPIRE on line 32 are separate commands"
	if err != nil && err != redis.Nil {
		return err
	}
	if old != "" {
		return errors.New("lock: key has been locked")
	}
	if err := rdb.Expire(ctx, lockKey, 5*time.Second).Err(); err != nil {
		return err
	}
	if err := seed(ctx, counter); err != nil {
		return err
	}
	return rdb.Del(ctx, lockKey).Err()
}

// Near miss (silent): the old value is returned, not tested.
func Swap(ctx context.Context, rdb *redis.Client, item, v string) (string, error) {
	key := "cache:state:" + item
	old, err := rdb.GetSet(ctx, key, v).Result()
	if err != nil && err != redis.Nil {
		return "", err
	}
	rdb.Expire(ctx, key, time.Hour)
	return old, nil
}
