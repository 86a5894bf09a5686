// Package recordupdate pins scripts that update records rather than take
// locks. A flash sale's compensation script reads an order's status,
// returns when the order is gone, marks it failed, puts the stock back
// and deletes the buyer's purchase record; a sibling method deletes that
// record too. Setting a key only when it is there takes nothing, and
// neither delete gives back a lock. A second script takes a job's lock
// (its first key) and clears the job's queued marker (its second): the
// lock is the first key's, not the marker's. The twin takes a job's key
// when it is free and releases it with a plain DEL in another script.
package recordupdate

import (
	"context"
	"strconv"

	"github.com/redis/go-redis/v9"
)

const compensate = `
local status = redis.call('GET', KEYS[1])
if not status then
    local stock = tonumber(redis.call('GET', KEYS[2]) or 0)
    return {-1, stock}
end
if status ~= 'pending' then
    return {1, 0}
end
redis.call('SET', KEYS[1], 'failed')
local stock = redis.call('INCRBY', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[3])
return {0, stock}`

type Store struct{ rdb *redis.Client }

func userKey(product, user int64) string {
	return "sale:user:" + strconv.FormatInt(product, 10) + ":" + strconv.FormatInt(user, 10)
}

// Near miss (silent): an update of the order, the stock and the record.
func (s *Store) Compensate(ctx context.Context, order string, product, user, qty int64) error {
	keys := []string{"sale:order:" + order, "sale:stock:" + strconv.FormatInt(product, 10), userKey(product, user)}
	return s.rdb.Eval(ctx, compensate, keys, qty).Err()
}

// Near miss (silent): the purchase record, deleted when a sale fails.
func (s *Store) DeleteUser(ctx context.Context, product, user int64) error {
	return s.rdb.Del(ctx, userKey(product, user)).Err()
}

const start = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    redis.call('DEL', KEYS[2])
    return 1
end
return 0`

func queuedKey(job string) string { return "jobs:queued:" + job }

// Near miss (silent): the lock is the first key; the second is a marker.
func (s *Store) Start(ctx context.Context, job, token string) (bool, error) {
	return s.rdb.Eval(ctx, start, []string{"jobs:run:{" + job + "}", queuedKey(job)}, token, 30000).Bool()
}

func (s *Store) Dequeue(ctx context.Context, job string) error {
	return s.rdb.Del(ctx, queuedKey(job)).Err()
}

const claim = `
local v = redis.call('GET', KEYS[1])
if v ~= false then
    return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`

const drop = `return redis.call('DEL', KEYS[1])` // want "DEL of KEYS\\[1\\]"

// Must report: taken when free, deleted after the work with no owner
// check.
func (s *Store) Run(ctx context.Context, job, token string, work func()) error {
	key := "claims:" + job
	ok, err := s.rdb.Eval(ctx, claim, []string{key}, token, 30000).Bool()
	if err != nil || !ok {
		return err
	}
	work()
	return s.rdb.Eval(ctx, drop, []string{key}).Err()
}
