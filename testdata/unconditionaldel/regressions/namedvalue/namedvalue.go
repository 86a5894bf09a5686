// Package namedvalue pins keys whose names say lock but whose use says
// value: a setting read back with GET, and the key a leader writes so
// that followers can read who leads. Nothing acquires them, so their DEL
// is no release. Their twins, the same names used as locks, report.
package namedvalue

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const prizeLockKey = "config:next_prize_lock"

func nextPrizeLocked(ctx context.Context, rdb *redis.Client) string {
	return rdb.Get(ctx, prizeLockKey).Val()
}

func resetPrizeLock(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, prizeLockKey)
}

const leaderKey = "svc:leader"

func announce(ctx context.Context, rdb *redis.Client, node string) {
	rdb.Set(ctx, leaderKey, node, 15*time.Second)
}

func whoLeads(ctx context.Context, rdb *redis.Client) string {
	return rdb.Get(ctx, leaderKey).Val()
}

func resign(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, leaderKey)
}

// Must report: the same kind of name, acquired and deleted as a lock.
const jobLockKey = "config:job_lock"

func runJob(ctx context.Context, rdb *redis.Client, token string) {
	if !rdb.SetNX(ctx, jobLockKey, token, time.Minute).Val() {
		return
	}
	defer rdb.Del(ctx, jobLockKey) // want "DEL of lock key `jobLockKey` without an owner check"
}

func jobHolder(ctx context.Context, rdb *redis.Client) string {
	return rdb.Get(ctx, jobLockKey).Val()
}

// Must report: a lock checked with GET before the DEL, not read as data.
func releaseChecked(ctx context.Context, rdb *redis.Client, token string) {
	if rdb.Get(ctx, "lock:report").Val() == token {
		rdb.Del(ctx, "lock:report") // want "GET on line 54 and this DEL of lock key `\"lock:report\"` are two round trips"
	}
}
