package plainset

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// The "acquire" is a plain SET: it takes the lock from whoever holds it.
func lockInvoice(ctx context.Context, rdb *redis.Client, invoiceID, owner string) error {
	key := fmt.Sprintf("invoice:%s:lock", invoiceID)
	return rdb.Set(ctx, key, owner, 30*time.Second).Err() // want "SET of lock key `key` without NX overwrites whoever holds it"
}

// Near miss: the same acquire with NX.
func lockInvoiceNX(ctx context.Context, rdb *redis.Client, invoiceID, owner string) (bool, error) {
	key := fmt.Sprintf("invoice:%s:lock", invoiceID)
	return rdb.SetNX(ctx, key, owner, 30*time.Second).Result()
}

type leaderLease struct {
	rdb  redis.UniversalClient
	key  string
	node string
}

func (l *leaderLease) acquire(ctx context.Context) bool {
	return l.rdb.SetArgs(ctx, l.key, l.node, redis.SetArgs{Mode: "NX", TTL: 10 * time.Second}).Err() == nil
}

// Renewal by re-SET of a key acquired with NX elsewhere.
func (l *leaderLease) renew(ctx context.Context) error {
	return l.rdb.SetEx(ctx, l.key, l.node, 10*time.Second).Err() // want "SET of lock key `l\\.key` without NX or IFEQ overwrites whoever holds it"
}

// Near miss: SET XX with the options unknown to the model (a variable).
func (l *leaderLease) renewArgs(ctx context.Context, args redis.SetArgs) error {
	return l.rdb.SetArgs(ctx, l.key, l.node, args).Err()
}

// Near miss: a plain SET of a cache key.
func cacheInvoice(ctx context.Context, rdb *redis.Client, invoiceID string, body []byte) {
	rdb.Set(ctx, "invoice:"+invoiceID, body, time.Hour)
}
