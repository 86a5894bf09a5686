// Package pcallerror: redis.pcall gives an error as a table with an err
// field, which is nil when there is no error.
package pcallerror

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var right = redis.NewScript(`local r = redis.pcall('INCR', KEYS[1]) if type(r) == 'table' and r.err ~= nil then return r end return r`)

var wrong = redis.NewScript(`local r = redis.pcall('INCR', KEYS[1]) if r == nil then return 0 end return r`) // want "Lua line 1: INCR reply == nil never holds"

func run(ctx context.Context, rdb *redis.Client, key string) {
	right.Run(ctx, rdb, []string{key})
	wrong.Run(ctx, rdb, []string{key})
}
