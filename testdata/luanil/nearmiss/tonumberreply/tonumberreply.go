// Package tonumberreply: tonumber of a nil reply (false) is nil, so
// tonumber(reply) == nil is a real test.
package tonumberreply

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var right = redis.NewScript(`if tonumber(redis.call('GET', KEYS[1])) == nil then return 0 end return redis.call('INCR', KEYS[1])`)

var rightLocal = redis.NewScript(`local n = redis.call('GET', KEYS[1]) if nil == tonumber(n) then return 0 end return redis.call('INCR', KEYS[1])`)

var wrong = redis.NewScript(`if redis.call('GET', KEYS[1]) == nil then return 0 end return redis.call('INCR', KEYS[1])`) // want "Lua line 1: GET reply == nil never holds"

func run(ctx context.Context, rdb *redis.Client, key string) {
	right.Run(ctx, rdb, []string{key})
	rightLocal.Run(ctx, rdb, []string{key})
	wrong.Run(ctx, rdb, []string{key})
}
