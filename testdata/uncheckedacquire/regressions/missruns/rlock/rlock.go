// Package rlock is a lock handle: Lock takes its key with SET NX, the
// handle's random token and a TTL and returns whether it got it; Unlock
// runs a compare-and-delete script. TryLock and UnlockNow are a cron helper pair:
// TryLock returns the reply of SET NX of a clock reading, and UnlockNow deletes
// the key. Nothing here is a finding of this analyzer.
package rlock

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Lock struct {
	rdb   *redis.Client
	key   string
	token string
	ttl   time.Duration
}

func New(rdb *redis.Client, key string) *Lock {
	return &Lock{rdb: rdb, key: "app:lock:" + key, token: uuid.NewString(), ttl: 10 * time.Second}
}

func (l *Lock) Lock(ctx context.Context) (bool, error) {
	return l.rdb.SetNX(ctx, l.key, l.token, l.ttl).Result()
}

func (l *Lock) Unlock(ctx context.Context) error {
	return l.rdb.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, []string{l.key}, l.token).Err()
}

var Rdb *redis.Client

func TryLock(key string, ttl time.Duration) bool {
	return Rdb.SetNX(context.Background(), key, time.Now().Format(time.RFC3339), ttl).Val()
}

func UnlockNow(key string) {
	Rdb.Del(context.Background(), key)
}
