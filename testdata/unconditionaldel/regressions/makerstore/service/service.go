// Package service pins a stock sync's lock taken and deferred-deleted
// through the cache helpers, beside a product cache read as JSON through
// them: the decoding is the helper's, for every key, so the lock is no
// record and its plain DEL is reported.
package service

import (
	"context"
	"time"

	"locklint.test/unconditionaldel/regressions/makerstore/cache"
)

type Product struct{ ID, Stock int }

func syncAll() {}

func SyncAllStock() error {
	ctx := context.Background()
	const lockKey = "upstream:sync_stock_running"
	locked, err := cache.SetNX(ctx, lockKey, "1", 30*time.Minute)
	if err != nil || !locked {
		return err
	}
	defer cache.Del(ctx, lockKey) // want "DEL of lock key `lockKey` without an owner check"
	syncAll()
	return nil
}

func Load(ctx context.Context, id string) (Product, error) {
	var p Product
	err := cache.GetJSON(ctx, "product:"+id, &p)
	return p, err
}
