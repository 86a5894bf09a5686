// Package activecounter pins issue 32's shape 6, a counter of active
// transactions on a table's lock: each transaction INCRs it on begin and
// DECRs it on commit, and the begin resets its TTL with a plain EXPIRE so
// that a count left by crashed processes decays. The counter has no
// owner, so the EXPIRE renews nobody's lock. The twin is a lock taken
// with SET NX and a token, extended by a watchdog's plain EXPIRE.
package activecounter

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type TableLocks struct {
	rdb *redis.Client
}

func activeKey(table string) string { return fmt.Sprintf("lock:%s:active", table) }

// Near miss (silent): the EXPIRE keeps a shared count from outliving its writers.
func (t *TableLocks) Begin(ctx context.Context, table string) error {
	pipe := t.rdb.TxPipeline()
	pipe.Incr(ctx, activeKey(table))
	pipe.Expire(ctx, activeKey(table), 5*time.Minute)
	_, err := pipe.Exec(ctx)
	return err
}

func (t *TableLocks) Commit(ctx context.Context, table string) error {
	return t.rdb.Decr(ctx, activeKey(table)).Err()
}

func (t *TableLocks) Active(ctx context.Context, table string) (int64, error) {
	return t.rdb.Get(ctx, activeKey(table)).Int64()
}

// Must report: a held lock extended with no owner check.
func (t *TableLocks) Exclusive(ctx context.Context, table string, work func(context.Context) error) error {
	key := fmt.Sprintf("lock:%s:exclusive", table)
	if !t.rdb.SetNX(ctx, key, uuid.NewString(), 30*time.Second).Val() {
		return fmt.Errorf("table %s is locked", table)
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		tick := time.NewTicker(10 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				t.rdb.Expire(ctx, key, 30*time.Second) // want "EXPIRE of lock key `key` without an owner check"
			}
		}
	}()
	return work(ctx)
}
