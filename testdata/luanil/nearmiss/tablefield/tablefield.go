// Package tablefield: a field or element of a reply may be nil; the reply
// may not.
package tablefield

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var right = redis.NewScript(`local t = redis.call('LRANGE', KEYS[1], 0, 0) if t[1] == nil then return 0 end
local h = redis.call('HGETALL', KEYS[2]) if h.owner == nil then return 0 end return 1`)

var wrong = redis.NewScript(`local t = redis.call('LRANGE', KEYS[1], 0, 0) if t == nil then return 0 end return 1`) // want "Lua line 1: LRANGE reply == nil never holds"

func run(ctx context.Context, rdb *redis.Client, a, b string) {
	right.Run(ctx, rdb, []string{a, b})
	wrong.Run(ctx, rdb, []string{a})
}
