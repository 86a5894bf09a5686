// Package watchlate pins a release that compares the holder with a plain
// GET and only then WATCHes the key and deletes it in a transaction: a
// lock that expired and passed to another holder between the GET and the
// WATCH is watched from the new holder's value on, and the transaction
// deletes the new holder's lock. The near miss reads the holder inside
// the Watch callback, after the WATCH.
package watchlate

import (
	"context"
	"errors"
	"strings"

	"github.com/go-redis/redis/v8"
)

const prefix = "LOCK:"

var conn *redis.Client

// Must report: the GET is before the WATCH.
func Unlock(name, token string) error {
	ctx := context.TODO()
	key := strings.Join([]string{prefix, name}, "")
	reply := conn.Get(ctx, key)
	if reply.Err() != nil {
		return reply.Err()
	}
	if reply.Val() != token {
		return errors.New("held by another")
	}
	txf := func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Del(ctx, key) // want "GET on line 25 and this DEL of lock key `key` \\(key of `Unlock`\\) are two round trips"
			return nil
		})
		return err
	}
	return conn.Watch(ctx, txf, key)
}

// Must report: the same with the callback written in the Watch call.
func UnlockInline(name, token string) error {
	ctx := context.TODO()
	key := prefix + name
	if conn.Get(ctx, key).Val() != token {
		return errors.New("held by another")
	}
	return conn.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Del(ctx, key) // want "GET on line 46 and this DEL of lock key `key` are two round trips"
			return nil
		})
		return err
	}, key)
}

// Near miss (silent): the holder is read under the WATCH.
func UnlockWatched(name, token string) error {
	ctx := context.TODO()
	key := prefix + name
	return conn.Watch(ctx, func(tx *redis.Tx) error {
		if tx.Get(ctx, key).Val() != token {
			return errors.New("held by another")
		}
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Del(ctx, key)
			return nil
		})
		return err
	}, key)
}
