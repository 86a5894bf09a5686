// Package gozero pins locks taken through go-zero's Redis client, whose
// methods forward to go-redis: a seckill handler's SETNX-EX then DEL.
package gozero

import (
	"context"
	"fmt"

	"github.com/zeromicro/go-zero/core/stores/redis"
)

func seckill(ctx context.Context, rds *redis.Redis, shop int64, token string) error {
	lockKey := fmt.Sprintf("lock:shop:%d", shop)
	ok, err := rds.SetnxExCtx(ctx, lockKey, token, 5)
	if err != nil || !ok {
		return err
	}
	defer rds.DelCtx(ctx, lockKey) // want "DEL of lock key `lockKey` without an owner check; release with `lock.Release` \\(DELEX IFEQ or compare-and-delete\\)$"
	return nil
}

func legacy(rds *redis.Redis, order string, token string) {
	if ok, _ := rds.SetnxEx("order:"+order+":lock", token, 30); !ok {
		return
	}
	rds.Del("order:" + order + ":lock") // want "DEL of lock key `\"order:\" \\+ order \\+ \":lock\"` without an owner check"
}

// Near miss: go-zero's own lock releases with an owner-checked script.
func withRedisLock(ctx context.Context, rds *redis.Redis, shop int64) error {
	l := redis.NewRedisLock(rds, fmt.Sprintf("lock:shop:%d", shop))
	l.SetExpire(5)
	ok, err := l.AcquireCtx(ctx)
	if err != nil || !ok {
		return err
	}
	_, err = l.ReleaseCtx(ctx)
	return err
}

// Near miss: a cache entry.
func evict(ctx context.Context, rds *redis.Redis, id string) {
	rds.DelCtx(ctx, "cache:user:"+id)
}
