package oldgoredis

import (
	"context"

	redis6 "github.com/go-redis/redis"
	"github.com/go-redis/redis/v8"
)

var unlock8 = redis.NewScript(`return redis.call('DEL', KEYS[1])`) // want "Lua line 1: DEL of KEYS\\[1\\] \\(lock key `\"lock:\" \\+ job`\\) with no owner check"

func releaseV8(ctx context.Context, rdb *redis.Client, job string) error {
	return unlock8.Run(ctx, rdb, []string{"lock:" + job}).Err()
}

func releaseV6(rdb *redis6.Client, job string) error {
	return rdb.Eval(`return redis.call('DEL', KEYS[1])`, []string{"lock:" + job}).Err() // want "Lua line 1: DEL of KEYS\\[1\\] \\(lock key `\"lock:\" \\+ job`\\) with no owner check"
}

// Near miss: owner-checked on v6.
func safeV6(rdb *redis6.Client, job, token string) error {
	return rdb.Eval(`if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`, []string{"lock:" + job}, token).Err()
}
