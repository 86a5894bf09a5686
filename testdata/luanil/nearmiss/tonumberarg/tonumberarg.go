// Package tonumberarg: an argument converted to a number may be nil; it
// is no reply.
package tonumberarg

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var right = redis.NewScript(`local ttl = tonumber(ARGV[2]) if ttl == nil then return redis.error_reply('bad ttl') end
if redis.call('GET', KEYS[1]) == false then return redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl) end return 0`)

var wrong = redis.NewScript( /* want "Lua line 2: GET reply == nil never holds" */ `if tonumber(ARGV[2]) == nil then return redis.error_reply('bad ttl') end
if redis.call('GET', KEYS[1]) == nil then return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end return 0`)

func run(ctx context.Context, rdb *redis.Client, key, token string) {
	right.Run(ctx, rdb, []string{key}, token, "30000")
	wrong.Run(ctx, rdb, []string{key}, token, "30000")
}
