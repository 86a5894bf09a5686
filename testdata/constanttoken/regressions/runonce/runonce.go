// Package runonce pins a per-period "already ran" marker: SETNX of a key
// for the day with a constant value and a TTL, never released, renewed or
// compared. The value guards nothing, so a constant is no finding. The
// twin, the same marker released after the work by an owner check that
// its constant passes for every holder, is a lock and reports.
package runonce

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func dailyReport(ctx context.Context, rdb *redis.Client, run func()) {
	day := time.Now().Format("2006-01-02")
	if !rdb.SetNX(ctx, "report:lock:"+day, 1, 25*time.Hour).Val() {
		return
	}
	run()
}

func hourlySync(ctx context.Context, rdb *redis.Client, run func()) {
	hour := time.Now().Format("2006-01-02T15")
	key := "sync:lock:" + hour
	if !rdb.SetNX(ctx, key, 1, time.Hour).Val() { // want "lock key `key` acquired with a non-unique token \\(the constant `1`\\)"
		return
	}
	defer rdb.Eval(ctx, unlock, []string{key}, 1)
	run()
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`
