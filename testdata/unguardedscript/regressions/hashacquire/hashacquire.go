// Package hashacquire pins a reentrant hash lock's acquire script: when
// EXISTS says the key is absent, HINCRBY creates it with the holder's
// field and PEXPIRE gives it a TTL. That PEXPIRE is part of taking the
// lock, as after a SET; the reentry branch's PEXPIRE is guarded by
// HEXISTS on the holder's field. A hold-count script with no such guard
// still renews whoever holds the key.
package hashacquire

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const enterScript = `
if redis.call('EXISTS', KEYS[1]) == 0 then
	redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
	redis.call('PEXPIRE', KEYS[1], ARGV[2])
	return 0
end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
	redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
	redis.call('PEXPIRE', KEYS[1], ARGV[2])
	return 0
end
return redis.call('PTTL', KEYS[1])
`

const claimScript = `
if redis.call('EXISTS', KEYS[1]) == 1 then
	return redis.call('PTTL', KEYS[1])
end
redis.call('HSET', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 0
`

type Mutex struct {
	rdb   *redis.Client
	key   string
	owner string
}

func (m *Mutex) Enter(ctx context.Context, ttl time.Duration) (int64, error) {
	return m.rdb.Eval(ctx, enterScript, []string{m.key}, m.owner, ttl.Milliseconds()).Int64()
}

func (m *Mutex) Claim(ctx context.Context, ttl time.Duration) (int64, error) {
	return m.rdb.Eval(ctx, claimScript, []string{m.key}, m.owner, ttl.Milliseconds()).Int64()
}

// Must report: the count goes up and the TTL is pushed out for whoever
// holds the key; nothing asks whether it is this caller.
const holdScript = `redis.call('HINCRBY', KEYS[1], 'holds', 1) return redis.call('PEXPIRE', KEYS[1], ARGV[1])` // want `Lua line 1: PEXPIRE of KEYS\[1\] \(lock key .m\.key.\) with no owner check`

func (m *Mutex) Hold(ctx context.Context, ttl time.Duration) error {
	return m.rdb.Eval(ctx, holdScript, []string{m.key}, ttl.Milliseconds()).Err()
}
