// Package requestmarker pins dedupe markers made for one request or
// event, taken with a constant value that nothing compares: only
// duplicates of the same request contend, and they never release. The
// twin is a lock per order whose constant value an owner check reads.
package requestmarker

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

type Orders struct {
	rdb *redis.Client
}

// Near miss (silent): one request's marker.
func (o *Orders) Begin(ctx context.Context, requestID string) (bool, error) {
	return o.rdb.SetNX(ctx, "order:request:lock:"+requestID, "processing", 24*time.Hour).Result()
}

// Near miss (silent): one message's dedupe key.
func (o *Orders) Seen(ctx context.Context, msg struct{ ID string }) (bool, error) {
	return o.rdb.SetNX(ctx, "consume:lock:"+msg.ID, "1", time.Hour).Result()
}

var releaseScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// Must report: an order's lock whose owner check compares a constant.
func (o *Orders) Pay(ctx context.Context, orderID string) error {
	key := "order:pay:lock:" + orderID
	ok, err := o.rdb.SetNX(ctx, key, "payer", 10*time.Second).Result() // want "non-unique token"
	if err != nil || !ok {
		return err
	}
	return releaseScript.Run(ctx, o.rdb, []string{key}, "payer").Err()
}
