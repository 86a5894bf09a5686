// Package comparefalse: a reply compared with false is the right test.
package comparefalse

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var right = redis.NewScript(`if redis.call('GET', KEYS[1]) == false then return 1 end return 0`)

var wrong = redis.NewScript(`if redis.call('GET', KEYS[1]) == nil then return 1 end return 0`) // want "Lua line 1: GET reply == nil never holds"

func run(ctx context.Context, rdb *redis.Client, key string) {
	right.Run(ctx, rdb, []string{key})
	wrong.Run(ctx, rdb, []string{key})
}
