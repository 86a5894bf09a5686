package oldgoredis

import (
	"context"
	"time"

	redisv6 "github.com/go-redis/redis"
	redisv8 "github.com/go-redis/redis/v8"
)

func work() {}

// go-redis v6 has no ctx; SetNX still gives false and a nil error.
func v6ErrOnly(rdb *redisv6.Client, token string) error {
	if err := rdb.SetNX("lock:v6", token, time.Minute).Err(); err != nil { // want "only the error of SET NX is checked, but a held lock gives false \\(0\\) and no error"
		return err
	}
	work()
	rdb.Del("lock:v6")
	return nil
}

// Near miss: v6, the reply tested.
func v6Checked(rdb *redisv6.Client, token string) {
	if ok, err := rdb.SetNX("lock:v6", token, time.Minute).Result(); err != nil || !ok {
		return
	}
	work()
	rdb.Del("lock:v6")
}

// go-redis v8: the acquire as a statement.
func v8Statement(ctx context.Context, rdb *redisv8.Client, token string) {
	rdb.SetNX(ctx, "lock:v8", token, time.Minute) // want "result of SET NX discarded: the code after it runs whether or not the lock was taken; check it, or use `lock\\.Obtain` via `fixgoredis8\\.Client`$"
	work()
	rdb.Del(ctx, "lock:v8")
}

// Near miss: v8, the reply tested.
func v8Checked(ctx context.Context, rdb *redisv8.Client, token string) {
	if !rdb.SetNX(ctx, "lock:v8", token, time.Minute).Val() {
		return
	}
	work()
	rdb.Del(ctx, "lock:v8")
}
