// Package luaconst pins issue 32's miss of a constant written inside the
// Lua acquire itself (SET KEYS[1] 1 PX ARGV[1] NX): every holder stores
// 1, and the renewal compares the key with "1", so a holder whose lease
// ran out extends the next holder's lock. The near misses store the
// caller's token, passed as ARGV, and take with the same script a key
// whose value nothing compares.
package luaconst

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var (
	acquire = redis.NewScript(`return redis.call('SET', KEYS[1], 1, 'PX', ARGV[1], 'NX')`)
	renew   = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then
	return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`)
	acquireToken = redis.NewScript(`return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX')`)
)

const lease = 10 * time.Second

// Must report: the value the script stores is the constant 1.
func Lock(ctx context.Context, rdb *redis.Client, name string) (bool, error) {
	err := acquire.Run(ctx, rdb, []string{"lock:" + name}, lease.Milliseconds()).Err() // want "lock key `\"lock:\" \\+ name` acquired with a non-unique token"
	if err == redis.Nil {
		return false, nil
	}
	return err == nil, err
}

func Renew(ctx context.Context, rdb *redis.Client, name string) error {
	return renew.Run(ctx, rdb, []string{"lock:" + name}, "1", lease.Milliseconds()).Err()
}

// Near miss (silent): the script stores the caller's random token.
func LockToken(ctx context.Context, rdb *redis.Client, name string) (string, error) {
	token := uuid.NewString()
	return token, acquireToken.Run(ctx, rdb, []string{"lock:" + name}, token, lease.Milliseconds()).Err()
}

func RenewToken(ctx context.Context, rdb *redis.Client, name, token string) error {
	return renew.Run(ctx, rdb, []string{"lock:" + name}, token, lease.Milliseconds()).Err()
}

// Near miss (silent): the same script takes a key whose value nothing
// compares; it is given back with DEL, which is another analyzer's
// question.
func RunCron(ctx context.Context, rdb *redis.Client, job string, run func()) error {
	key := "lock:cron:" + job
	if err := acquire.Run(ctx, rdb, []string{key}, lease.Milliseconds()).Err(); err != nil {
		return err
	}
	defer rdb.Del(ctx, key)
	run()
	return nil
}
