// Package leaderrenew pins a leader lease of one second, taken with SETNX
// of the node's id and renewed every half second by a ticker with a plain
// EXPIRE: a node that stalls past the second loses the key to a standby,
// and its next tick extends the new leader's lease and keeps it active
// too. The resign is owner-checked (WATCH, GET, DEL in MULTI/EXEC), and
// that is what makes "/election/active" a lock: a key taken with NX whose
// delete compares the holder first. The twin, a warm-up mark under a name
// with no lock word, is taken with NX and kept alive with EXPIRE in
// another function; nothing deletes it or compares its value, so nothing
// says it has an owner to check.
package leaderrenew

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const (
	electionKey = "/election/active"
	leaseTTL    = time.Second
	warmKey     = "/cache/warm"
)

type election struct {
	ctx    context.Context
	rdb    *redis.Client
	id     string
	active bool
}

func (e *election) Campaign() error {
	ctx, cancel := context.WithTimeout(e.ctx, time.Second)
	defer cancel()
	ok, err := e.rdb.SetNX(ctx, electionKey, e.id, leaseTTL).Result()
	if err != nil {
		return err
	}
	if !ok {
		return context.DeadlineExceeded
	}
	go e.renew()
	return nil
}

func (e *election) Resign() error {
	ctx, cancel := context.WithTimeout(e.ctx, 3*time.Second)
	defer cancel()
	txf := func(tx *redis.Tx) error {
		val, err := tx.Get(ctx, electionKey).Result()
		if err != nil || val != e.id {
			return nil
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			return pipe.Del(ctx, electionKey).Err()
		})
		return err
	}
	return e.rdb.Watch(ctx, txf, electionKey)
}

func (e *election) renew() {
	ticker := time.NewTicker(leaseTTL / 2)
	defer ticker.Stop()
	for {
		select {
		case <-e.ctx.Done():
			e.active = false
			_ = e.Resign()
			return
		case <-ticker.C:
			ctx, cancel := context.WithTimeout(e.ctx, time.Second)
			_, err := e.rdb.Expire(ctx, electionKey, leaseTTL).Result() // want "EXPIRE of lock key `electionKey` without an owner check"
			cancel()
			if err != nil {
				e.active = false
				_ = e.Resign()
				return
			}
		}
	}
}

// warm marks that one replica warms the cache this minute; extendWarm
// keeps the mark while the warm-up runs. Nothing deletes it or compares
// its value.
func (e *election) warm(ctx context.Context) bool {
	return e.rdb.SetNX(ctx, warmKey, e.id, time.Minute).Val()
}

func (e *election) extendWarm(ctx context.Context) {
	e.rdb.Expire(ctx, warmKey, time.Minute)
}
