// Package pairedhelpers pins the release half of a lock split over two
// helpers whose names say nothing: a caller takes a job's key through one
// (it also counts the start, so it is no forwarder), runs the job, then
// deletes the key through another. Any other delete of the same
// helper-made key is a release too. A caller that drops before it takes
// pairs nothing.
package pairedhelpers

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func busyKey(shard string) string { return "reindex:" + shard + ":busy" }

func begin(ctx context.Context, rdb *redis.Client, shard, token string) bool {
	rdb.Incr(ctx, "reindex:starts")
	return rdb.SetNX(ctx, busyKey(shard), token, time.Minute).Val()
}

func finish(ctx context.Context, rdb *redis.Client, shard string) {
	rdb.Incr(ctx, "reindex:ends")
	rdb.Del(ctx, busyKey(shard)) // want "DEL of lock key `busyKey\\(shard\\)` \\(taken by `begin` and deleted by `finish` in `reindex`\\) without an owner check"
}

// The job is passed on through one more function before it is taken.
func reindex(ctx context.Context, rdb *redis.Client, shard, token string) {
	if !start(ctx, rdb, shard, token) {
		return
	}
	defer finish(ctx, rdb, shard)
}

func start(ctx context.Context, rdb *redis.Client, shard, token string) bool {
	return begin(ctx, rdb, shard, token)
}

// A start-up sweep deletes the same key of another shard.
func sweep(ctx context.Context, rdb *redis.Client, shard string) {
	rdb.Del(ctx, busyKey(shard+"-old")) // want "DEL of lock key `busyKey\\(shard \\+ \"-old\"\\)`"
}

// Dropped, then taken: a reset before a write, no lock.
func tagKey(id string) string { return "tag:" + id + ":current" }

func setTag(ctx context.Context, rdb *redis.Client, id, v string) {
	rdb.Incr(ctx, "tag:writes")
	rdb.SetNX(ctx, tagKey(id), v, time.Hour)
}

func clearTag(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Incr(ctx, "tag:clears")
	rdb.Del(ctx, tagKey(id))
}

func retag(ctx context.Context, rdb *redis.Client, id, v string) {
	clearTag(ctx, rdb, id)
	setTag(ctx, rdb, id, v)
}

// A start-up sweep that deletes every shard's key in one command, the
// keys appended to a slice in a loop.
func sweepAll(ctx context.Context, rdb *redis.Client, shards []string) {
	keys := make([]string, 0, len(shards))
	for _, s := range shards {
		keys = append(keys, busyKey(s))
	}
	rdb.Del(ctx, keys...) // want "DEL of lock key `busyKey\\(s\\)`"
}

// Deletes of cache keys gathered the same way say nothing of a lock.
func purge(ctx context.Context, rdb *redis.Client, ids []string) {
	var keys []string
	for _, id := range ids {
		keys = append(keys, "cache:item:"+id)
	}
	rdb.Del(ctx, keys...)
}
