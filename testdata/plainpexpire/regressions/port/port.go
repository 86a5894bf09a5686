// Package port renews a lock through a Redis port, an interface of its
// own in go-redis's words: the renewal extends whoever holds the key.
package port

import (
	"context"
	"time"
)

type Leases interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error)
	Expire(ctx context.Context, key string, ttl time.Duration) (bool, error)
	Eval(ctx context.Context, script string, keys []string, args ...any) (any, error)
}

func Keep(ctx context.Context, l Leases, shard, owner string) error {
	key := "shard:" + shard + ":lock"
	if ok, err := l.SetNX(ctx, key, owner, 30*time.Second); err != nil || !ok {
		return err
	}
	for range time.Tick(10 * time.Second) {
		if _, err := l.Expire(ctx, key, 30*time.Second); err != nil { // want "EXPIRE of lock key `key` without an owner check"
			return err
		}
	}
	return nil
}

const renew = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`

// Near miss: the renewal compares the owner in its script.
func KeepChecked(ctx context.Context, l Leases, shard, owner string) error {
	key := "shard:" + shard + ":lock"
	if ok, err := l.SetNX(ctx, key, owner, 30*time.Second); err != nil || !ok {
		return err
	}
	for range time.Tick(10 * time.Second) {
		if _, err := l.Eval(ctx, renew, []string{key}, owner, 30000); err != nil {
			return err
		}
	}
	return nil
}
