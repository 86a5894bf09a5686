// Package startupclear pins a cron process that clears its job locks
// before its scheduler starts: ClearJobLocks deletes every job's fixed
// lock key and takes none, so it ends no holding whose token a check
// could compare. The jobs' own release after their work is still
// reported, and so is a helper with the same deletes that a job calls
// after taking the keys: a release, not a reset.
package startupclear

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const (
	readBlockLockKey  = "cron_read_block"
	notifyLockKey     = "cron_transaction_notify"
	sendLockKey       = "cron_send_transactions"
	rebuildLockKey    = "cron_rebuild_index"
	rebuildPartLockKy = "cron_rebuild_index_part"
)

func ClearJobLocks(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, readBlockLockKey)
	rdb.Del(ctx, notifyLockKey)
	rdb.Del(ctx, sendLockKey)
}

func run(ctx context.Context, rdb *redis.Client, key string, job func()) {
	ok, err := rdb.SetNX(ctx, key, "1", 10*time.Minute).Result()
	if err != nil || !ok {
		return
	}
	defer rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	job()
}

func ReadBlocks(ctx context.Context, rdb *redis.Client) { run(ctx, rdb, readBlockLockKey, func() {}) }
func Notify(ctx context.Context, rdb *redis.Client)     { run(ctx, rdb, notifyLockKey, func() {}) }
func Send(ctx context.Context, rdb *redis.Client)       { run(ctx, rdb, sendLockKey, func() {}) }

// Must report: the same shape of deletes, called after the work by the
// function that took both keys.
func releaseRebuild(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, rebuildLockKey)    // want "DEL of lock key `rebuildLockKey` without an owner check"
	rdb.Del(ctx, rebuildPartLockKy) // want "DEL of lock key `rebuildPartLockKy` without an owner check"
}

func Rebuild(ctx context.Context, rdb *redis.Client, work func()) {
	if ok, _ := rdb.SetNX(ctx, rebuildLockKey, "1", time.Minute).Result(); !ok {
		return
	}
	if ok, _ := rdb.SetNX(ctx, rebuildPartLockKy, "1", time.Minute).Result(); !ok {
		rdb.Del(ctx, rebuildLockKey) // want "DEL of lock key `rebuildLockKey` without an owner check"
		return
	}
	work()
	releaseRebuild(ctx, rdb)
}
