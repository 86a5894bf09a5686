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

// The owner-checked releases that make "lock:report" and "jobs" locks,
// not markers nothing gives back; with a constant, every holder passes
// their check.
const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func releaseReport(ctx context.Context, rdb *redis.Client) {
	rdb.Eval(ctx, unlock, []string{"lock:report"}, "me")
}

func releaseJobs(ctx context.Context, rdb *redis.Client) {
	rdb.Eval(ctx, unlock, []string{"jobs"}, "worker")
}

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
	defer rdb.Eval(ctx, unlock, []string{k}, "1")
}

// Near miss: the same lock given back with a plain DEL. Nothing compares
// its value, so the DEL is the lock's one defect (unconditionaldel's).
func post(ctx context.Context, rdb *redis.Client, user string) {
	k := "post:" + user
	if !rdb.SetNX(ctx, k, "1", 2*time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, k)
}

// Near miss: a first-writer-wins marker that nothing deletes.
func once(ctx context.Context, rdb *redis.Client, id string) bool {
	return rdb.SetNX(ctx, "seen:"+id, "1", time.Hour).Val()
}
