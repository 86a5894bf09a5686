// Package semaphorelease pins a relay's concurrency limit: each request
// holds a lease, its id in a sorted set scored by when the lease ends,
// and refreshing it re-scores the id and extends the set's TTL. The set
// is a collection of every holder's lease, not one holder's lock, so its
// TTL is nobody's to guard. The twin extends a string lease key with no
// owner check, and is reported.
package semaphorelease

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const refreshSrc = `
local key = KEYS[1]
local member = ARGV[1]
redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[3])
if redis.call('ZSCORE', key, member) then
  redis.call('ZADD', key, ARGV[2], member)
  redis.call('PEXPIRE', key, ARGV[4])
  return 1
end
return 0
`

const extendSrc = `return redis.call('PEXPIRE', KEYS[1], ARGV[1])` // want "Lua line 1: PEXPIRE of KEYS\\[1\\] \\(lock key .*\\) with no owner check"

type Client struct{ rdb *redis.Client }

// Silent: the sorted set of leases.
func (c *Client) RefreshConcurrencyLease(ctx context.Context, apiKey, requestID string, lease time.Duration) (bool, error) {
	now := time.Now()
	n, err := c.rdb.Eval(ctx, refreshSrc, []string{"concurrency:" + apiKey},
		requestID, now.Add(lease).UnixMilli(), now.UnixMilli(), (lease + time.Minute).Milliseconds()).Int()
	return n == 1, err
}

// Must report: one holder's lease key, extended whoever holds it.
func (c *Client) RefreshLease(ctx context.Context, name string, lease time.Duration) error {
	return c.rdb.Eval(ctx, extendSrc, []string{"lease:" + name}, lease.Milliseconds()).Err()
}
