// Package callertoken pins constant tokens that the caller of an acquire
// helper supplies, and acquires known as locks because the same function
// deletes the key after the work.
package callertoken

import (
	"context"

	"time"

	"github.com/redis/go-redis/v9"
)

func acquire(ctx context.Context, rdb *redis.Client, key, owner string) bool {
	return rdb.SetNX(ctx, key, owner, time.Minute).Val()
}

func report(ctx context.Context, rdb *redis.Client) {
	if !acquire(ctx, rdb, "lock:report", "me") { // want "lock key `\"lock:report\"` acquired with a non-unique token \\(the constant `\"me\"`\\)"
		return
	}
}

func worker(ctx context.Context, rdb *redis.Client) {
	acquire(ctx, rdb, "jobs", "worker") // want "lock key `\"jobs\"` \\(key passed to `acquire`\\) acquired with a non-unique token \\(the constant `\"worker\"`\\)"
}

// The releases that make "lock:report" and "jobs" locks, not markers
// nothing gives back.
func releaseReport(ctx context.Context, rdb *redis.Client) { rdb.Del(ctx, "lock:report") }
func releaseJobs(ctx context.Context, rdb *redis.Client)   { rdb.Del(ctx, "jobs") }

// Near miss: a token made per acquisition.
func reportOwned(ctx context.Context, rdb *redis.Client, token string) {
	acquire(ctx, rdb, "lock:report", token)
}

// Taken, worked under, deleted: a lock, with no lock word anywhere.
func submit(ctx context.Context, rdb *redis.Client, user string) {
	k := "submit:" + user
	if !rdb.SetNX(ctx, k, "1", 2*time.Second).Val() { // want "lock key `k` acquired with a non-unique token \\(the constant `\"1\"`\\)"
		return
	}
	defer rdb.Del(ctx, k)
}

// Near miss: a first-writer-wins marker that nothing deletes.
func once(ctx context.Context, rdb *redis.Client, id string) bool {
	return rdb.SetNX(ctx, "seen:"+id, "1", time.Hour).Val()
}
