package comparethen

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrLost = errors.New("lock lost")

// GET, compare, then PEXPIRE: two round trips.
func extend(ctx context.Context, rdb *redis.Client, lockKey, token string, ttl time.Duration) error {
	cur, err := rdb.Get(ctx, lockKey).Result()
	if err != nil {
		return err
	}
	if cur != token {
		return ErrLost
	}
	return rdb.PExpire(ctx, lockKey, ttl).Err() // want "GET on line 15 and this PEXPIRE of lock key `lockKey` are two round trips"
}

// The same shape, renewing by re-SET: it overwrites the next holder.
func extendBySet(ctx context.Context, rdb *redis.Client, lockKey, token string, ttl time.Duration) error {
	if rdb.Get(ctx, lockKey).Val() != token {
		return ErrLost
	}
	return rdb.Set(ctx, lockKey, token, ttl).Err() // want "GET on line 27 and this SET of lock key `lockKey` are two round trips"
}

// Near miss: the compare and the PEXPIRE inside WATCH/MULTI/EXEC on the key.
func extendWatched(ctx context.Context, rdb *redis.Client, lockKey, token string, ttl time.Duration) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		cur, err := tx.Get(ctx, lockKey).Result()
		if err != nil {
			return err
		}
		if cur != token {
			return ErrLost
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.PExpire(ctx, lockKey, ttl)
			return nil
		})
		return err
	}, lockKey)
}

// A transaction without a WATCH does not make the GET part of it.
func extendUnwatched(ctx context.Context, rdb *redis.Client, lockKey, token string, ttl time.Duration) error {
	if rdb.Get(ctx, lockKey).Val() != token {
		return ErrLost
	}
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.PExpire(ctx, lockKey, ttl) // want "GET on line 53 and this PEXPIRE of lock key `lockKey` are two round trips"
		return nil
	})
	return err
}
