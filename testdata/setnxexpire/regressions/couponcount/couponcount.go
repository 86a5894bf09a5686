// Package couponcount pins a coupon's usage counter: an INCR whose count
// is held against the coupon's limit (over it, a DECR gives the use back)
// and written back to the coupon's record, with its 30-day TTL set when
// the count is 1. The code calls the key lockKey, but the count has no
// holder: silent. The twin takes a job's run with INCR, tests the count
// against 1 for whether it won, and sets the TTL in a second command:
// reported.
package couponcount

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Coupon struct {
	ID    string
	Limit int
}

func saveUses(string, int) {}

// Near miss (silent): a counter of uses.
func Redeem(ctx context.Context, rdb *redis.Client, c Coupon) bool {
	lockKey := "coupon_usage:" + c.ID
	newCount, _ := rdb.Incr(ctx, lockKey).Result()
	if newCount == 1 {
		rdb.Expire(ctx, lockKey, 30*24*time.Hour)
	}
	if int(newCount) > c.Limit {
		rdb.Decr(ctx, lockKey)
		return false
	}
	saveUses(c.ID, int(newCount))
	return true
}

func run(string) {}

// Must report: the count says whether this caller took the job.
func RunOnce(ctx context.Context, rdb *redis.Client, job string) bool {
	key := "lock:job:" + job
	n, _ := rdb.Incr(ctx, key).Result() // want "INCR and the EXPIRE on line 46 are separate commands"
	if n == 1 {
		rdb.Expire(ctx, key, time.Minute)
	}
	if n != 1 {
		return false
	}
	run(job)
	return true
}
