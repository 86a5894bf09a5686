// Package leasevalue pins records that carry a lock word but hold data.
// A usage lease stores the usage charged at selection under
// keypool:lease:<id>, and the report takes it back once with a script
// that returns what it read and deletes it: the value is a number handed
// to its one reader, not a holder's token. An active-transactions counter
// is decremented on release and set back to zero when it went below:
// a count, not a lock. The twins: a job's lease written with plain SET
// and given back through a compare-and-delete of its token, and a lock
// named for the same transactions taken with plain SET.
package leasevalue

import (
	"context"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Pool struct{ rdb *redis.Client }

func LeaseKey(id string) string { return "keypool:lease:" + id }

// Near miss (silent): the lease's value is the estimate.
func (p *Pool) LeaseSet(ctx context.Context, id string, est float64) error {
	return p.rdb.Set(ctx, LeaseKey(id), strconv.FormatFloat(est, 'f', -1, 64), 10*time.Minute).Err()
}

var leaseTake = redis.NewScript(`
local v = redis.call("GET", KEYS[1])
if v then
	redis.call("DEL", KEYS[1])
end
return v
`)

func (p *Pool) LeaseTake(ctx context.Context, id string) (float64, bool, error) {
	v, err := leaseTake.Run(ctx, p.rdb, []string{LeaseKey(id)}).Text()
	if err == redis.Nil {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	f, err := strconv.ParseFloat(v, 64)
	return f, err == nil, err
}

// store is the limiter's client wrapper.
type store struct{ rdb *redis.Client }

func (s *store) Decr(ctx context.Context, key string) (int64, error) {
	return s.rdb.Decr(ctx, key).Result()
}

func (s *store) Set(ctx context.Context, key string, v any, ttl time.Duration) error {
	return s.rdb.Set(ctx, key, v, ttl).Err()
}

type RateLimiter struct {
	client *store
	active string
}

// Near miss (silent): the counter's reset.
func (rl *RateLimiter) ReleaseWithKey(ctx context.Context, tenant string) error {
	activeKey := rl.active
	if tenant != "" {
		activeKey = "txn:active:" + tenant
	}
	n, err := rl.client.Decr(ctx, activeKey)
	if err != nil {
		return err
	}
	if n < 0 {
		_ = rl.client.Set(ctx, activeKey, 0, time.Hour)
	}
	return nil
}

var releaseJob = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

func JobLeaseKey(job string) string { return "job:lease:" + job }

// Must report: a lease taken with plain SET and given back through an
// owner check.
func (p *Pool) RunJob(ctx context.Context, job string, run func() error) error {
	token := uuid.NewString()
	if err := p.rdb.Set(ctx, JobLeaseKey(job), token, time.Minute).Err(); err != nil { // want "SET of lock key `JobLeaseKey\\(job\\)` without NX overwrites whoever holds it"
		return err
	}
	defer releaseJob.Run(ctx, p.rdb, []string{JobLeaseKey(job)}, token)
	return run()
}

// Must report: a lock over the transactions, taken with plain SET.
func (p *Pool) Drain(ctx context.Context, tenant string) error {
	lockKey := "txn:lock:" + tenant
	return p.rdb.Set(ctx, lockKey, uuid.NewString(), time.Minute).Err() // want "SET of lock key `lockKey` without NX overwrites whoever holds it"
}
