// Package aliaskeys pins a renewal script that checks the owner on
// KEYS[1] and extends KEYS[2]: owner-checked when every call passes the
// same key for both, unguarded where one passes another key.
package aliaskeys

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const renewSrc = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[2], ARGV[2]) end return 0`

func renew(ctx context.Context, rdb *redis.Client, name, token string, ttl time.Duration) error {
	key := "lock:" + name
	return rdb.Eval(ctx, renewSrc, []string{key, key}, token, ttl.Milliseconds()).Err()
}

const renewOtherSrc = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[2], ARGV[2]) end return 0` // want "Lua line 1: PEXPIRE of KEYS\\[2\\] \\(lock key `\"lease:\" \\+ name`\\) with no owner check"

// Must report: the owner is checked on one key and another is extended.
func renewOther(ctx context.Context, rdb *redis.Client, name, token string, ttl time.Duration) error {
	return rdb.Eval(ctx, renewOtherSrc, []string{"lock:" + name, "lease:" + name}, token, ttl.Milliseconds()).Err()
}
