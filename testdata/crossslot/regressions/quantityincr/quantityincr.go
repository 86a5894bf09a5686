// Package quantityincr pins scripts that move a quantity between keys on
// a plain client: a flash sale's allocator takes a batch from the global
// stock into an instance's quota bucket (DECRBY, INCRBY by the batch)
// and records the instance's lease in a sorted set. INCRBY by an
// argument is no fence, and a plain client is no Cluster, so the keys'
// slots do not matter. The twin issues a fence with INCR beside the lock
// it takes, the pattern meant to survive a move to the Cluster.
package quantityincr

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

const allocate = `
local stock = tonumber(redis.call('GET', KEYS[1]) or 0)
local n = math.min(stock, tonumber(ARGV[2]))
if n > 0 then
    redis.call('DECRBY', KEYS[1], n)
    redis.call('INCRBY', KEYS[2], n)
end
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return n`

// Near miss (silent): quantities and a lease record, on a plain client.
func Allocate(ctx context.Context, rdb *redis.Client, product int64, instance string, batch int) (int64, error) {
	stockKey := "seckill:stock:" + strconv.FormatInt(product, 10)
	bucketKey := "seckill:bucket:" + strconv.FormatInt(product, 10) + ":" + instance
	leaseKey := "seckill:lease:" + strconv.FormatInt(product, 10)
	return rdb.Eval(ctx, allocate, []string{stockKey, bucketKey, leaseKey}, instance, batch, time.Now().Add(time.Minute).Unix()).Int64()
}

const acquireFenced = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return redis.call('INCR', KEYS[2])
end
return 0`

// Must report: a lock and its fence counter on different slots.
func Acquire(ctx context.Context, rdb *redis.Client, job, token string) (int64, error) {
	return rdb.Eval(ctx, acquireFenced, []string{"job:lock:" + job, "job:fence:" + job}, token, 30000).Int64() // want "may hash to different Cluster slots"
}
