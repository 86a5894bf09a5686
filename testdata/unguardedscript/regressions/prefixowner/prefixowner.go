// Package prefixowner pins an owner check written as a prefix compare: a
// holder record stores "token|name", and the release script deletes it
// only when the value starts with the caller's token. The same delete
// with no compare reports.
package prefixowner

import (
	"context"

	"github.com/redis/go-redis/v9"
)

const releaseBoth = `
if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("DEL", KEYS[1]) end
local h = redis.call("GET", KEYS[2])
if h and string.sub(h, 1, string.len(ARGV[1])) == ARGV[1] then redis.call("DEL", KEYS[2]) end
return 1`

const releaseCareless = "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end redis.call('DEL', KEYS[2]) return 1" // want "Lua line 1: DEL of KEYS\\[2\\]"

func leave(ctx context.Context, rdb *redis.Client, room, token string) error {
	return rdb.Eval(ctx, releaseBoth, []string{"game:lock:" + room, "game:lock:holder:" + room}, token).Err()
}

func leaveCareless(ctx context.Context, rdb *redis.Client, room, token string) error {
	return rdb.Eval(ctx, releaseCareless, []string{"game:lock:" + room, "game:lock:holder:" + room}, token).Err()
}
