// Package goframe pins constant tokens and split acquires through
// goframe's gredis, whose SetNX takes no TTL.
package goframe

import (
	"context"

	"github.com/gogf/gf/v2/database/gredis"
	"github.com/gogf/gf/v2/os/gtime"
)

func seckill(ctx context.Context, r *gredis.Redis, goods string) {
	r.Do(ctx, "SET", "lock:goods:"+goods, 1, "NX", "EX", 600) // want "lock key `\"lock:goods:\" \\+ goods` acquired with a non-unique token \\(the constant `1`\\)"
}

// Near miss: a token made per acquisition.
func seckillOwned(ctx context.Context, r *gredis.Redis, goods, token string) {
	r.Do(ctx, "SET", "lock:goods:"+goods, token, "NX", "EX", 600)
}

// goframe's clock is a clock: two acquisitions in one second store the
// same value.
func seckillClock(ctx context.Context, r *gredis.Redis, goods string) {
	r.Do(ctx, "SET", "lock:goods:"+goods, gtime.Now().Unix(), "NX", "EX", 600) // want "lock key `\"lock:goods:\" \\+ goods` acquired with a non-unique token \\(`gtime\\.Now`\\)"
}

const unlockGoods = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

// The goods lock is given back with a compare of its value: a lock, not
// a marker, so its value matters.
func releaseGoods(ctx context.Context, r *gredis.Redis, goods, token string) {
	r.Do(ctx, "EVAL", unlockGoods, 1, "lock:goods:"+goods, token)
}
