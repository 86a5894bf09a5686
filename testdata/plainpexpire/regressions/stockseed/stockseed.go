// Package stockseed pins a stock counter seeded into Redis if absent: the
// product service writes {stock}:<id> with SETNX and no TTL, reads only
// the error (nobody asks whether it won), and on an error writes the same
// value with a plain SET. Nothing is taken, so the SET overwrites no
// holder. The twin asks whether its SETNX won before it works, and then
// overwrites the key with a plain SET.
package stockseed

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Stock struct {
	ProductID int64
	Num       int
}

// Near miss (silent): a seed; the SET only repairs a failed seed.
func Warm(ctx context.Context, rdb *redis.Client, stocks []Stock) int {
	failed := 0
	for _, s := range stocks {
		key := fmt.Sprintf("{stock}:%d", s.ProductID)
		if err := rdb.SetNX(ctx, key, s.Num, 0).Err(); err != nil {
			if err := rdb.Set(ctx, key, s.Num, 0).Err(); err != nil {
				failed++
			}
		}
	}
	return failed
}

// Must report: the SETNX is an acquire whose win the code reads, and the
// SET overwrites whoever holds the key by then.
func Rebuild(ctx context.Context, rdb *redis.Client, shard string, work func()) {
	key := "rebuild:" + shard
	if !rdb.SetNX(ctx, key, "r1", time.Minute).Val() {
		return
	}
	work()
	rdb.Set(ctx, key, "r1", time.Minute) // want "SET of lock key `key` without NX or IFEQ overwrites whoever holds it"
}
