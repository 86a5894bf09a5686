// Package reassigned: a local given another value after the reply holds
// that value when it is compared.
package reassigned

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var right = redis.NewScript(`local v = redis.call('GET', KEYS[1])
v = tonumber(v)
if v == nil then return 0 end
return redis.call('INCRBY', KEYS[1], v)`)

var wrong = redis.NewScript( /* want "Lua line 3: GET reply == nil never holds" */ `local v = redis.call('GET', KEYS[1])
local n = tonumber(v)
if v == nil then return 0 end
return redis.call('INCRBY', KEYS[1], n)`)

func run(ctx context.Context, rdb *redis.Client, key string) {
	right.Run(ctx, rdb, []string{key})
	wrong.Run(ctx, rdb, []string{key})
}
