// Package watchnamed pins a leader's resign through go-redis's Watch
// whose callback is a local function value, not a literal argument: the
// GET reads the leader key under the WATCH and the DEL is queued in the
// transaction's MULTI/EXEC, so a change of the key after the WATCH
// aborts the EXEC. The twin's callback sends its DEL on the watched
// connection outside MULTI, which the WATCH does not guard.
package watchnamed

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const electionKey = "/election/active"

type election struct {
	rdb *redis.Client
	id  string
}

func (e *election) Campaign(ctx context.Context) (bool, error) {
	return e.rdb.SetNX(ctx, electionKey, e.id, time.Second).Result()
}

func (e *election) Resign(ctx context.Context) error {
	txf := func(tx *redis.Tx) error {
		val, err := tx.Get(ctx, electionKey).Result()
		if err == redis.Nil {
			return nil
		}
		if err != nil {
			return err
		}
		if val == e.id {
			_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
				return pipe.Del(ctx, electionKey).Err()
			})
		}
		return err
	}
	return e.rdb.Watch(ctx, txf, electionKey)
}

func (e *election) ResignDirect(ctx context.Context) error {
	txf := func(tx *redis.Tx) error {
		val, err := tx.Get(ctx, electionKey).Result()
		if err != nil || val != e.id {
			return err
		}
		return tx.Del(ctx, electionKey).Err() // want "GET on line [0-9]+ and this DEL of lock key `electionKey` are two round trips"
	}
	return e.rdb.Watch(ctx, txf, electionKey)
}
