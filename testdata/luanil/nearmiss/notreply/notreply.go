// Package notreply: not v tests the reply; not v == nil tests a boolean.
package notreply

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var right = redis.NewScript(`local v = redis.call('GET', KEYS[1]) if not v then return 1 end return 0`)

var wrong = redis.NewScript(`local v = redis.call('GET', KEYS[1]) if not v == nil then return 1 end return 0`) // want "Lua line 1: `not` applies before `==`, so this compares a boolean with nil and never holds"

func run(ctx context.Context, rdb *redis.Client, key string) {
	right.Run(ctx, rdb, []string{key})
	wrong.Run(ctx, rdb, []string{key})
}
