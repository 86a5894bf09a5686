// Package lockfunc pins locks that are known by the function that takes
// or releases them, or by the key a caller passes, not by the key's own
// name: the Redis call sees a parameter called key.
package lockfunc

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type RedisLock struct{ rdb *redis.Client }

func (l *RedisLock) TryLock(ctx context.Context, key, token string, ttl time.Duration) (bool, error) {
	return l.rdb.SetNX(ctx, key, token, ttl).Result()
}

func (l *RedisLock) Unlock(ctx context.Context, key string) error {
	return l.rdb.Del(ctx, key).Err() // want "DEL of lock key `key` \\(key of `\\(\\*RedisLock\\)\\.Unlock`\\) without an owner check"
}

// Near miss: a helper of the lock type that drops a cache entry; the
// type's name says lock, the method's does not.
func (l *RedisLock) dropCache(ctx context.Context, key string) {
	l.rdb.Del(ctx, key)
}

// A lock verb, in a package that acquires.
func Release(ctx context.Context, rdb *redis.Client, name string) error {
	return rdb.Del(ctx, name).Err() // want "DEL of lock key `name` \\(key of `Release`\\) without an owner check"
}

// Near miss: a function named for a lock that touches two keys cannot say
// which of them is the lock.
func LoadWithLock(ctx context.Context, rdb *redis.Client, key, guard string) string {
	v := rdb.Get(ctx, key).Val()
	rdb.Del(ctx, key)
	rdb.Del(ctx, guard)
	return v
}

// The lock word is at the call site. A helper that only forwards its key
// to one command is that command at each call; one that does more is
// judged in its body, with the caller named.
func drop(ctx context.Context, rdb *redis.Client, k string) {
	rdb.Del(ctx, k) // want "DEL of lock key `k` \\(passed `\"lock:report:\" \\+ id` at lockfunc\\.go:56\\) without an owner check"
	rdb.Incr(ctx, "stats:released")
}

func forget(ctx context.Context, rdb *redis.Client, k string) error {
	return rdb.Del(ctx, k).Err()
}

func finishReport(ctx context.Context, rdb *redis.Client, id string) {
	drop(ctx, rdb, "lock:report:"+id)
	forget(ctx, rdb, "lock:export:"+id) // want "DEL of lock key `\"lock:export:\" \\+ id` without an owner check"
}

// Near miss: the same helper shape, only ever called with cache keys.
func evict(ctx context.Context, rdb *redis.Client, k string) {
	rdb.Del(ctx, k)
}

func refreshUser(ctx context.Context, rdb *redis.Client, id string) {
	evict(ctx, rdb, "cache:user:"+id)
}

// Near miss: "Unblock" and "Blocking" are not lock words.
func Unblock(ctx context.Context, rdb *redis.Client, ip string) {
	rdb.Del(ctx, ip)
}
