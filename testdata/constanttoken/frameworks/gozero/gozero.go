// Package gozero pins constant tokens and missing expiries on locks taken
// through go-zero's Redis client.
package gozero

import (
	"context"
	"fmt"

	"github.com/zeromicro/go-zero/core/stores/redis"
)

func seckill(ctx context.Context, rds *redis.Redis, shop int64) bool {
	lockKey := fmt.Sprintf("lock:shop:%d", shop)
	ok, _ := rds.SetnxExCtx(ctx, lockKey, "1", 5) // want "lock key `lockKey` acquired with a non-unique token \\(the constant `\"1\"`\\)"
	return ok
}

// Near miss: a token made per acquisition.
func seckillOwned(ctx context.Context, rds *redis.Redis, shop int64, token string) bool {
	ok, _ := rds.SetnxExCtx(ctx, fmt.Sprintf("lock:shop:%d", shop), token, 5)
	return ok
}
