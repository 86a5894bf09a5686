// Package forcerelease pins a force-release API: beside the owner-checked
// Release, ForceRelease deletes the lock whoever holds it, as an
// operator's way out of a stuck lock. Its missing owner check is the
// point. The twin is the holder's own release, a plain DEL in a function
// whose name only contains the letters (EnforceQuota's lock).
package forcerelease

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

type Locker struct {
	rdb  *redis.Client
	name string
}

func (l *Locker) Acquire(ctx context.Context, owner string, ttl time.Duration) (bool, error) {
	return l.rdb.SetNX(ctx, l.name, owner, ttl).Result()
}

func (l *Locker) Release(ctx context.Context, owner string) error {
	return release.Run(ctx, l.rdb, []string{l.name}, owner).Err()
}

// Near miss (silent): deletes the lock whoever holds it, on purpose.
func (l *Locker) ForceRelease(ctx context.Context) error {
	return l.rdb.Del(ctx, l.name).Err()
}

// Must report: the holder's own release.
func EnforceQuota(ctx context.Context, rdb *redis.Client, account string, work func()) {
	key := "quota:lock:" + account
	if !rdb.SetNX(ctx, key, "q1", time.Minute).Val() {
		return
	}
	work()
	rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
}
