// Package txpipelined pins GET-compare-DEL inside a WATCH callback whose
// DEL is queued with the *Tx's Pipelined. In go-redis v6 that pipeline is
// MULTI/EXEC, so EXEC aborts when the key changed after the GET: atomic.
// From v7 on, (*Tx).Pipelined is a plain pipeline on the watched
// connection, and WATCH without MULTI protects nothing.
package txpipelined

import (
	"context"

	redisv6 "github.com/go-redis/redis"
	"github.com/redis/go-redis/v9"
)

func releaseV6(rdb *redisv6.Client, key, token string) error {
	return rdb.Watch(func(tx *redisv6.Tx) error {
		if tx.Get(key).Val() != token {
			return nil
		}
		_, err := tx.Pipelined(func(p redisv6.Pipeliner) error {
			p.Del(key)
			return nil
		})
		return err
	}, key)
}

func releaseV9(ctx context.Context, rdb *redis.Client, key, token string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		if tx.Get(ctx, key).Val() != token {
			return nil
		}
		_, err := tx.Pipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, key) // want "GET on line 30 and this DEL of lock key `key` are two round trips"
			return nil
		})
		return err
	}, key)
}

// Near miss: v9 with TxPipelined is MULTI/EXEC under the WATCH.
func releaseV9Tx(ctx context.Context, rdb *redis.Client, key, token string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		if tx.Get(ctx, key).Val() != token {
			return nil
		}
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, key)
			return nil
		})
		return err
	}, key)
}
