package oldgoredis

import (
	"context"
	"crypto/rand"
	"os"
	"time"

	redisv6 "github.com/go-redis/redis"
	redisv7 "github.com/go-redis/redis/v7"
	redisv8 "github.com/go-redis/redis/v8"
)

// go-redis v6 has no ctx: the value is the second argument.
func v6(rdb *redisv6.Client) bool {
	return rdb.SetNX("lock:feed", "locked", 30*time.Second).Val() // want "lock key `\"lock:feed\"` acquired with a non-unique token \\(the constant `\"locked\"`\\); use `lock\\.Obtain` or a crypto/rand token$"
}

func v7(rdb *redisv7.Client) bool {
	host, _ := os.Hostname()
	return rdb.SetNX("lock:feed", host, 30*time.Second).Val() // want "lock key `\"lock:feed\"` acquired with a non-unique token \\(`os\\.Hostname`\\)"
}

func v8(ctx context.Context, rdb *redisv8.Client) bool {
	return rdb.SetNX(ctx, "lock:feed", time.Now().Unix(), 30*time.Second).Val() // want "lock key `\"lock:feed\"` acquired with a non-unique token \\(`time\\.Now`\\); use `lock\\.Obtain` via `fixgoredis8\\.Client` or a crypto/rand token$"
}

// Near misses.

func v6Fresh(rdb *redisv6.Client) bool {
	return rdb.SetNX("lock:feed", rand.Text(), 30*time.Second).Val()
}

func v8Param(ctx context.Context, rdb *redisv8.Client, token string) bool {
	return rdb.SetNX(ctx, "lock:feed", token, 30*time.Second).Val()
}
