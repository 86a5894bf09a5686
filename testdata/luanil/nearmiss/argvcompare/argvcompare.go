// Package argvcompare: a reply compared with the caller's token is an
// owner check, not a nil test.
package argvcompare

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var right = redis.NewScript(`local v = redis.call('GET', KEYS[1]) if v == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

var wrong = redis.NewScript(`local v = redis.call('GET', KEYS[1]) if v == nil then return -1 end if v == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`) // want "Lua line 1: GET reply == nil never holds"

func run(ctx context.Context, rdb *redis.Client, key, token string) {
	right.Run(ctx, rdb, []string{key}, token)
	wrong.Run(ctx, rdb, []string{key}, token)
}
