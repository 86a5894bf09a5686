// Package pairedhelpers pins a lock split over two helpers whose names
// say nothing: a scheduler marks a job active with SET NX and no TTL in
// one method, clears the mark in another, and runs the job between the
// two calls with the same job. Take, work, drop: a lock, so a crash
// during the job leaves it held forever. Marks that no caller both takes
// and drops stay silent.
package pairedhelpers

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type scheduler struct{ rdb *redis.Client }

func activeKey(job string) string { return "sched:" + job + ":active" }

func (s *scheduler) markActive(ctx context.Context, job string) bool {
	s.rdb.Incr(ctx, "sched:starts")
	return s.rdb.SetNX(ctx, activeKey(job), "1", 0).Val() // want "lock key `activeKey\\(job\\)` \\(taken by `markActive` and deleted by `clearActive` in `run`\\) acquired with no expiry"
}

func (s *scheduler) clearActive(ctx context.Context, job string) {
	s.rdb.Incr(ctx, "sched:ends")
	s.rdb.Del(ctx, activeKey(job))
}

func (s *scheduler) run(ctx context.Context, job string, work func()) {
	if !s.markActive(ctx, job) {
		return
	}
	defer s.clearActive(ctx, job)
	work()
}

// A first-run marker: set once with no TTL, and deleted only by an
// operator's reset, never by the function that set it.
func seenKey(user string) string { return "onboard:" + user + ":seen" }

func markSeen(ctx context.Context, rdb *redis.Client, user string) bool {
	return rdb.SetNX(ctx, seenKey(user), time.Now().Unix(), 0).Val()
}

func resetSeen(ctx context.Context, rdb *redis.Client, user string) {
	rdb.Del(ctx, seenKey(user))
}

func welcome(ctx context.Context, rdb *redis.Client, user string) {
	if markSeen(ctx, rdb, user) {
		println("welcome", user)
	}
}

func adminReset(ctx context.Context, rdb *redis.Client, user string) {
	resetSeen(ctx, rdb, user)
}

// A cache filled if absent and dropped after a write, in that order by one
// caller: its entries are read back as data, so they are no lock.
func entryKey(id string) string { return "cache:entry:" + id }

func fill(ctx context.Context, rdb *redis.Client, id, v string) {
	rdb.SetNX(ctx, entryKey(id), v, 0)
}

func drop(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Del(ctx, entryKey(id))
}

func read(ctx context.Context, rdb *redis.Client, id string) string {
	return rdb.Get(ctx, entryKey(id)).Val()
}

func rewrite(ctx context.Context, rdb *redis.Client, id, v string) {
	fill(ctx, rdb, id, v)
	drop(ctx, rdb, id)
}
