package oldgoredis

import (
	"context"
	"time"

	redisv6 "github.com/go-redis/redis"
	redisv8 "github.com/go-redis/redis/v8"
)

type leader struct {
	rdb *redisv6.Client
}

const leaderKey = "election:leader"

func (l *leader) resign() {
	l.rdb.Del(leaderKey) // want "DEL of lock key `leaderKey` without an owner check"
}

// v8: acquire and release in one function; the fix targets go-redis v9
// only (analyzer/fix is built on v9), so there is no edit here.
func v8(ctx context.Context, rdb *redisv8.Client, token string) {
	if rdb.SetNX(ctx, "lock:v8", token, time.Minute).Val() {
		defer rdb.Del(ctx, "lock:v8") // want "DEL of lock key `\"lock:v8\"` without an owner check"
	}
}

// Near miss: v6 cache key.
func purge(rdb *redisv6.Client) {
	rdb.Del("cache:index")
}
