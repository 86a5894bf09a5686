// Package goframe pins locks taken through goframe's gredis: Do with a
// command name, as redigo's, and the typed group methods.
package goframe

import (
	"context"

	"github.com/gogf/gf/v2/database/gredis"
)

func seckill(ctx context.Context, r *gredis.Redis, goods, token string) error {
	k := "lock:goods:" + goods
	v, err := r.Do(ctx, "SET", k, token, "NX", "EX", "600")
	if err != nil || v.IsNil() {
		return err
	}
	defer r.Do(ctx, "del", k) // want "DEL of lock key `k` without an owner check"
	return nil
}

func typed(ctx context.Context, r *gredis.Redis, order, token string) {
	k := "order:" + order + ":lock"
	ttl := int64(30)
	if v, _ := r.Set(ctx, k, token, gredis.SetOption{NX: true, TTLOption: gredis.TTLOption{EX: &ttl}}); v.IsNil() {
		return
	}
	r.Del(ctx, k) // want "DEL of lock key `k` without an owner check"
}

// Near miss: compare-and-delete in one script.
func release(ctx context.Context, r *gredis.Redis, goods, token string) {
	r.Eval(ctx, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`, 1, []string{"lock:goods:" + goods}, []interface{}{token})
}

// Near miss: a cache key.
func evict(ctx context.Context, r *gredis.Redis, id string) {
	r.Do(ctx, "DEL", "cache:"+id)
	r.Del(ctx, "cache:"+id)
}
