// Package pairedclock pins a comment service's rebuild lock split over
// two helpers whose key is a parameter: one stores the time with SETNX
// and a TTL, the other deletes the key with a plain DEL, and the list
// logics call one, rebuild, and defer the other with the same key.
// Nothing compares the value, so the clock reading guards nothing: the
// plain DEL is the defect, and unconditionaldel's to report. The twin's
// release helper compares the value before it deletes: there the clock
// reading is the owner check's token and is reported.
package pairedclock

import (
	"context"
	"strconv"
	"time"

	"github.com/zeromicro/go-zero/core/stores/redis"
)

func tryAcquireRebuildLock(ctx context.Context, rds *redis.Redis, key string) (bool, error) {
	token := strconv.FormatInt(time.Now().UnixNano(), 10)
	return rds.SetnxExCtx(ctx, key, token, 5)
}

func releaseRebuildLock(ctx context.Context, rds *redis.Redis, key string) {
	_, _ = rds.DelCtx(ctx, key)
}

func rebuild(context.Context) {}

// Silent: the time, compared by nothing; the paired helper deletes it.
func QueryComments(ctx context.Context, rds *redis.Redis, post int64) {
	lockKey := "lock:comment:list:" + strconv.FormatInt(post, 10)
	locked, err := tryAcquireRebuildLock(ctx, rds, lockKey)
	if err != nil || !locked {
		return
	}
	defer releaseRebuildLock(ctx, rds, lockKey)
	rebuild(ctx)
}

func QueryReplies(ctx context.Context, rds *redis.Redis, root int64) {
	lockKey := "lock:comment:reply:" + strconv.FormatInt(root, 10)
	if locked, _ := tryAcquireRebuildLock(ctx, rds, lockKey); locked {
		defer releaseRebuildLock(ctx, rds, lockKey)
		rebuild(ctx)
	}
}

// Must report: the same clock token, returned to the caller, which hands
// it to a release helper that compares it before the delete.
func tryAcquireFeedLock(ctx context.Context, rds *redis.Redis, key string) (string, bool, error) {
	token := strconv.FormatInt(time.Now().UnixNano(), 10)
	ok, err := rds.SetnxExCtx(ctx, key, token, 5) // want "lock key `key` \\(key of `tryAcquireFeedLock`\\) acquired with a non-unique token \\(`time\\.Now`"
	return token, ok, err
}

func releaseFeedLock(ctx context.Context, rds *redis.Redis, key, token string) {
	v, err := rds.GetCtx(ctx, key)
	if err != nil || v != token {
		return
	}
	_, _ = rds.DelCtx(ctx, key)
}

func RebuildFeed(ctx context.Context, rds *redis.Redis, user int64) {
	lockKey := "lock:feed:" + strconv.FormatInt(user, 10)
	token, locked, err := tryAcquireFeedLock(ctx, rds, lockKey)
	if err != nil || !locked {
		return
	}
	defer releaseFeedLock(ctx, rds, lockKey, token)
	rebuild(ctx)
}
