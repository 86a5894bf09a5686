// Package watchnomulti pins a release that WATCHes the lock's key, reads
// it and drops the value, then sends DEL straight on the watched
// connection, not queued in a MULTI: nothing compares the holder and the
// WATCH guards nothing, so the DEL removes whoever holds the lock. The
// near miss compares the value read under the WATCH with the token and
// queues the DEL in the transaction.
package watchnomulti

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

const prefixLock = "lock_"

type Redis struct{ client *redis.Client }

func (r Redis) Lock(ctx context.Context, key string, exp time.Duration) (bool, error) {
	key = prefixLock + key
	ok, err := r.client.SetNX(ctx, key, uuid.NewString(), exp).Result()
	if err != nil {
		return false, fmt.Errorf("setnx: %w", err)
	}
	return ok, nil
}

// Must report.
func (r Redis) Unlock(ctx context.Context, key string) error {
	key = prefixLock + key
	err := r.client.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.Get(ctx, key).Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			return fmt.Errorf("get: %w", err)
		}
		return tx.Del(ctx, key).Err() // want "DEL of lock key `key`"
	}, key)
	if err != nil && !errors.Is(err, redis.TxFailedErr) {
		return err
	}
	return nil
}

// Near miss (silent).
func (r Redis) UnlockOwned(ctx context.Context, key, token string) error {
	key = prefixLock + key
	return r.client.Watch(ctx, func(tx *redis.Tx) error {
		v, err := tx.Get(ctx, key).Result()
		if err != nil {
			return err
		}
		if v != token {
			return errors.New("not the holder")
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Del(ctx, key)
			return nil
		})
		return err
	}, key)
}
