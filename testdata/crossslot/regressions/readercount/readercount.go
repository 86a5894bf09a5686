// Package readercount pins a read-write lock on a single-node client
// whose read-lock script steps a readers counter beside the writer's
// key: the count stays in the script, so the counter is no fence, and on
// a client that cannot be a Cluster the pair is left alone. The near
// miss returns the count it steps: a fence issued with the lock.
package readercount

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var readLock = redis.NewScript(`
if redis.call('GET', KEYS[2]) then
	return 0
end
local count = redis.call('INCR', KEYS[1])
if count == 1 then
	redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return 1`)

var fenced = redis.NewScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
	return redis.call('INCR', KEYS[2])
end
return 0`)

type RW struct {
	rdb        *redis.Client
	key        string
	readersKey string
}

func New(rdb *redis.Client, name string) *RW {
	return &RW{rdb: rdb, key: "rw:lock:" + name, readersKey: "rw:readers:" + name}
}

func (r *RW) RLock(ctx context.Context, ttl time.Duration) (bool, error) {
	n, err := readLock.Run(ctx, r.rdb, []string{r.readersKey, r.key}, ttl.Milliseconds()).Int()
	return n == 1, err
}

func (r *RW) Lock(ctx context.Context, token string, ttl time.Duration) (int64, error) {
	return fenced.Run(ctx, r.rdb, []string{r.key, r.readersKey}, token, ttl.Milliseconds()).Int64() // want "may hash to different Cluster slots"
}
