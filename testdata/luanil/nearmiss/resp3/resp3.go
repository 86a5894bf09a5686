// Package resp3: after redis.setresp(3) a null reply is Lua nil (Redis's
// Lua API: RESP3 null converts to nil), so == nil is the right test.
package resp3

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var right = redis.NewScript(`redis.setresp(3) if redis.call('GET', KEYS[1]) == nil then return 1 end return 0`)

// Back to RESP2 before the call: a null reply is false again.
var wrong = redis.NewScript(`redis.setresp(3) redis.setresp(2) if redis.call('GET', KEYS[1]) == nil then return 1 end return 0`) // want "Lua line 1: GET reply == nil never holds"

func run(ctx context.Context, rdb *redis.Client, key string) {
	right.Run(ctx, rdb, []string{key})
	wrong.Run(ctx, rdb, []string{key})
}
