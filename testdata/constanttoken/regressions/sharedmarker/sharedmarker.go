// Package sharedmarker pins a payment gateway's notification marker that
// two callbacks take: each takes "pay:notify:lock:<order>" with SetNX of
// "1", deletes it only when its own processing failed, and keeps it on
// success. Nothing compares the value, so the constant guards nothing:
// silent. The twin's release compares the shared constant before its
// delete, and that compare is what a per-acquisition token protects:
// reported.
package sharedmarker

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func process(context.Context, string) error { return nil }

func PaypalNotify(ctx context.Context, rdb *redis.Client, order string) string {
	key := "pay:notify:lock:" + order
	ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result()
	if err != nil || !ok {
		return "success"
	}
	if err := process(ctx, order); err != nil {
		rdb.Del(ctx, key)
		return "fail"
	}
	return "success"
}

func EpayNotify(ctx context.Context, rdb *redis.Client, order string) string {
	key := "pay:notify:lock:" + order
	if ok, _ := rdb.SetNX(ctx, key, "1", time.Minute).Result(); !ok {
		return "success"
	}
	if err := process(ctx, order); err != nil {
		rdb.Del(ctx, key)
		return "fail"
	}
	return "success"
}

const releaseScript = `
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`

func RefundNotify(ctx context.Context, rdb *redis.Client, order string) string {
	key := "pay:refund:lock:" + order
	ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result() // want "lock key `key` acquired with a non-unique token"
	if err != nil || !ok {
		return "busy"
	}
	defer rdb.Eval(ctx, releaseScript, []string{key}, "1")
	if err := process(ctx, order); err != nil {
		return "fail"
	}
	return "success"
}

func ChargebackNotify(ctx context.Context, rdb *redis.Client, order string) string {
	key := "pay:refund:lock:" + order
	ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result() // want "lock key `key` acquired with a non-unique token"
	if err != nil || !ok {
		return "busy"
	}
	defer rdb.Eval(ctx, releaseScript, []string{key}, "1")
	return "success"
}
