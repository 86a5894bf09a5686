// Package forcedoc pins a forced clear that its doc comment names: a
// migration coordinator takes its lock through an owner-checked lock, and
// its Unlock, which the operator's "migrate unlock" command calls after a
// crash, deletes the key whoever holds it, as its comment says. The twin
// is a holder's own release whose comment only says it enforces one
// holder.
package forcedoc

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

const migrationLockKey = ".outpost:migration_lock"

type Coordinator struct {
	rdb *redis.Client
}

func (c *Coordinator) lock(ctx context.Context, token string) (bool, error) {
	return c.rdb.SetNX(ctx, migrationLockKey, token, time.Hour).Result()
}

func (c *Coordinator) unlock(ctx context.Context, token string) error {
	return release.Run(ctx, c.rdb, []string{migrationLockKey}, token).Err()
}

// Unlock force-clears the migration lock left behind by a crashed run.
func (c *Coordinator) Unlock(ctx context.Context) error {
	return c.rdb.Del(ctx, migrationLockKey).Err()
}

type Quota struct {
	rdb *redis.Client
}

// Release ends the account's quota lock; it enforces one holder per
// account.
func (q *Quota) Release(ctx context.Context, account string) error {
	return q.rdb.Del(ctx, "quota:lock:"+account).Err() // want "DEL of lock key"
}

func (q *Quota) Take(ctx context.Context, account string) bool {
	return q.rdb.SetNX(ctx, "quota:lock:"+account, "q1", time.Minute).Val()
}
