// Package idempotencystate pins an idempotency token's state record:
// the token is issued once, its hash moves from init to processing to
// done, and a failed attempt moves it back to init so that the client's
// retry with the same token gets in. The scripts' EXPIREs keep the
// record's TTL; only the token's own retries reach that key. The twin
// renews a job's lock in a script with no owner check.
package idempotencystate

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

var rdb *redis.Client

var acquireScript = redis.NewScript(`
local v = redis.call('HGET', KEYS[1], 'state')
if v == 'init' then
    redis.call('HSET', KEYS[1], 'state', 'processing')
    redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1]))
    return 1
end
return 0
`)

var resetScript = redis.NewScript(`
redis.call('HSET', KEYS[1], 'state', ARGV[1])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
`)

// Near miss (silent): the token's state moves to processing.
func AcquireIdempotencyLock(ctx context.Context, key string) (bool, error) {
	n, err := acquireScript.Run(ctx, rdb, []string{key}, 600).Int()
	return n == 1, err
}

// Near miss (silent): a failed attempt hands the token back to its
// client's retry.
func ReleaseIdempotencyLock(ctx context.Context, key string) error {
	return resetScript.Run(ctx, rdb, []string{key}, "init", 600).Err()
}

var renewScript = redis.NewScript(`return redis.call('PEXPIRE', KEYS[1], ARGV[1])`) // want "Lua line 1: PEXPIRE of KEYS\\[1\\] \\(lock key `\"lock:job:\" \\+ job`\\) with no owner check"

// Must report: a job's lock renewed in a script that checks no owner.
func RenewJobLock(ctx context.Context, job string) error {
	return renewScript.Run(ctx, rdb, []string{"lock:job:" + job}, time.Minute.Milliseconds()).Err()
}
