package oldgoredis

import (
	"context"
	"time"

	redisv6 "github.com/go-redis/redis"
	redisv7 "github.com/go-redis/redis/v7"
	redisv8 "github.com/go-redis/redis/v8"
)

// go-redis v6 has no ctx: arguments are found by parameter name.
func v6(rdb *redisv6.Client, token string) {
	rdb.SetNX("lock:v6", token, 0) // want `SETNX and the EXPIRE on line 15 are separate commands`
	rdb.Expire("lock:v6", time.Minute)
}

// Near miss: v6 SetNX with a TTL.
func v6TTL(rdb *redisv6.Client, token string) {
	rdb.SetNX("lock:v6", token, time.Minute)
}

func v7(rdb *redisv7.ClusterClient, token string) {
	rdb.SetNX("lock:v7", token, 0) // want `SETNX and the PEXPIRE on line 25 are separate commands`
	rdb.PExpire("lock:v7", time.Minute)
}

func v8(ctx context.Context, rdb redisv8.UniversalClient, token string) {
	rdb.SetNX(ctx, "lock:v8", token, 0) // want `SETNX and the EXPIRE on line 30 are separate commands`
	rdb.Expire(ctx, "lock:v8", time.Minute)
}

// Near miss: v8 with a TTL.
func v8TTL(ctx context.Context, rdb *redisv8.Ring, token string) {
	rdb.SetNX(ctx, "lock:v8", token, time.Minute)
}
