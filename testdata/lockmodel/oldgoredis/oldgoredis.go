// Package oldgoredis shows that go-redis v6 to v8 arguments are found by
// parameter name: v6 and v7 take no context.
package oldgoredis

import (
	"context"
	"time"

	redisv6 "github.com/go-redis/redis"
	redisv7 "github.com/go-redis/redis/v7"
	redisv8 "github.com/go-redis/redis/v8"
)

func v6(rdb *redisv6.Client, token string) {
	rdb.SetNX("lock:a", token, 0)          // want `^SETNX key="lock:a" value=token ttl=none NX lock=name$`
	rdb.Expire("lock:a", time.Second)      // want `^EXPIRE key="lock:a" ttl=time.Second lock=name$`
	rdb.Watch(func(tx *redisv6.Tx) error { // want `^WATCH key="lock:a" lock=name$`
		tx.Pipelined(func(p redisv6.Pipeliner) error {
			p.Del("lock:a") // want `^DEL key="lock:a" queued tx watched lock=name$`
			return nil
		})
		return nil
	}, "lock:a")
}

func v7(rdb *redisv7.Client, token string) {
	rdb.SetNX("lock:b", token, time.Second) // want `^SET key="lock:b" value=token ttl=time.Second NX lock=name$`
}

func v8(ctx context.Context, rdb *redisv8.Client, token string) {
	rdb.Del(ctx, "lock:c") // want `^DEL key="lock:c" lock=name$`
}
