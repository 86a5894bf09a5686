// Package tokenkey pins a lock service whose acquire script writes two
// keys: the resource key, holding the lock's random id, and a record
// named by that id, holding the resource and owner. Release and Renew
// are given the id: they read the record, act on the resource key only
// when it still holds the id, and delete or extend the record itself
// without a check. No other acquisition can write a key named by this
// one's random id, so the record needs no owner check. The twin's
// forced drop deletes a lock key without one.
package tokenkey

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/redis/go-redis/v9"
)

var acquireScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) then return 0 end
redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[3])
redis.call("SET", KEYS[2], ARGV[2], "PX", ARGV[3])
return 1
`)

var releaseScript = redis.NewScript(`
local resource = redis.call("GET", KEYS[1])
if not resource then return 0 end
local resKey = ARGV[2] .. "res:" .. resource
if redis.call("GET", resKey) == ARGV[1] then
  redis.call("DEL", resKey)
end
redis.call("DEL", KEYS[1])
return 1
`)

var renewScript = redis.NewScript(`
local resource = redis.call("GET", KEYS[1])
if not resource then return 0 end
local resKey = ARGV[3] .. "res:" .. resource
if redis.call("GET", resKey) ~= ARGV[1] then return 0 end
redis.call("PEXPIRE", resKey, ARGV[2])
redis.call("PEXPIRE", KEYS[1], ARGV[2])
return 1
`)

var forceScript = redis.NewScript("return redis.call('DEL', KEYS[1])") // want "Lua line 1: DEL of KEYS\\[1\\] \\(lock key `\"lock:\" \\+ resource`\\) with no owner check"

const prefix = "locks:"

type Backend struct{ rdb *redis.Client }

func (b *Backend) resKey(resource string) string { return prefix + "res:" + resource }
func (b *Backend) idKey(id string) string        { return prefix + "id:" + id }

func (b *Backend) Acquire(ctx context.Context, resource string, ttl time.Duration) (string, bool, error) {
	id := rand.Text()
	n, err := acquireScript.Run(ctx, b.rdb, []string{b.resKey(resource), b.idKey(id)}, id, resource, ttl.Milliseconds()).Int()
	return id, n == 1, err
}

func (b *Backend) Release(ctx context.Context, id string) error {
	return releaseScript.Run(ctx, b.rdb, []string{b.idKey(id)}, id, prefix).Err()
}

func (b *Backend) Renew(ctx context.Context, id string, ttl time.Duration) error {
	return renewScript.Run(ctx, b.rdb, []string{b.idKey(id)}, id, ttl.Milliseconds(), prefix).Err()
}

func (b *Backend) Drop(ctx context.Context, resource string) error {
	return forceScript.Run(ctx, b.rdb, []string{"lock:" + resource}).Err()
}
