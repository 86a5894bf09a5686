// Package gocomment: a script in a Go comment is not sent to Redis.
package gocomment

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The old script was
//
//	if redis.call('GET', KEYS[1]) == nil then return 1 end return 0
//
// and its Lua comment keeps the history too.
var right = redis.NewScript(`-- was: if redis.call('GET', KEYS[1]) == nil then
if redis.call('GET', KEYS[1]) == false then return 1 end return 0`)

var wrong = redis.NewScript(`if redis.call('GET', KEYS[1]) == nil then return 1 end return 0`) // want "Lua line 1: GET reply == nil never holds"

func run(ctx context.Context, rdb *redis.Client, key string) {
	right.Run(ctx, rdb, []string{key})
	wrong.Run(ctx, rdb, []string{key})
}
