// Package driverrefresh pins a lock driver whose methods take the lock's
// name from their caller: Acquire takes it with SET NX, Release deletes
// it after an owner check, and Refresh and Extend set its TTL with a
// plain EXPIRE of the key they are given. Nothing names that key a lock,
// but the type's own acquire and release say what it is: its Refresh is
// a lock's renewal with no owner check. The near misses: a session
// store's Refresh of a key its type never takes with NX, and the
// driver's Expire and Touch, whose names are no renewal verbs.
package driverrefresh

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type redisDriver struct{ rdb *redis.Client }

func (d *redisDriver) Acquire(ctx context.Context, lockName, owner string, ttl time.Duration) (bool, error) {
	return d.rdb.SetNX(ctx, lockName, owner, ttl).Result()
}

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func (d *redisDriver) Release(ctx context.Context, lockName, owner string) error {
	return release.Run(ctx, d.rdb, []string{lockName}, owner).Err()
}

func (d *redisDriver) Refresh(ctx context.Context, key string, ttl time.Duration) error {
	return d.rdb.Expire(ctx, key, ttl).Err() // want "EXPIRE of lock key `key` \\(key of `\\(\\*redisDriver\\).Refresh`\\) without an owner check"
}

func (d *redisDriver) Extend(ctx context.Context, key string, ttl time.Duration) error {
	return d.rdb.PExpire(ctx, key, ttl).Err() // want "PEXPIRE of lock key `key` \\(key of `\\(\\*redisDriver\\).Extend`\\) without an owner check"
}

// Expire names the command: a client wrapper's Expire serves every key
// (lockextend), so it stays silent here too.
func (d *redisDriver) Expire(ctx context.Context, key string, ttl time.Duration) error {
	return d.rdb.Expire(ctx, key, ttl).Err()
}

func (d *redisDriver) Touch(ctx context.Context, key string, ttl time.Duration) error {
	return d.rdb.Expire(ctx, key, ttl).Err()
}

type sessions struct{ rdb *redis.Client }

func (s *sessions) Create(ctx context.Context, id, user string) error {
	return s.rdb.Set(ctx, "session:"+id, user, time.Hour).Err()
}

func (s *sessions) Refresh(ctx context.Context, key string, ttl time.Duration) error {
	return s.rdb.Expire(ctx, key, ttl).Err()
}

func (s *sessions) Delete(ctx context.Context, key string) error {
	return s.rdb.Del(ctx, key).Err()
}
