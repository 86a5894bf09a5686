// Package methodvalue calls Redis through method values and method
// expressions: f := rdb.Del; f(ctx, k). The model cannot see the key
// through them, and must not crash trying.
package methodvalue

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func MethodValue(ctx context.Context, rdb *redis.Client) {
	del := rdb.Del
	del(ctx, "lock:a")
	setnx := rdb.SetNX
	setnx(ctx, "lock:b", "t", 0)
}

func MethodExpr(ctx context.Context, rdb *redis.Client) {
	(*redis.Client).Del(rdb, ctx, "lock:c") // want "DEL of lock key `\"lock:c\"` without an owner check"
	ops := []func(context.Context, ...string) *redis.IntCmd{rdb.Del, rdb.Unlink}
	for _, op := range ops {
		op(ctx, "lock:d")
	}
}

func Deferred(ctx context.Context, rdb *redis.Client) {
	if rdb.SetNX(ctx, "lock:e", "t", time.Second).Val() {
		defer rdb.Del(ctx, "lock:e") // want "DEL of lock key `\"lock:e\"` without an owner check"
	}
	f := func(keys ...string) *redis.IntCmd { return rdb.Del(ctx, keys...) }
	f("lock:f")
}
