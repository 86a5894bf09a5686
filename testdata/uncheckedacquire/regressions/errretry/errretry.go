// Package errretry pins a load-test service's callback guard: the
// engines call back once per report, and the handler takes
// "NotifyStopStress:<plan>" with SETNX, retrying up to three times while
// the command fails, reading only its error, then finishes the plan's
// reports under a deferred DEL. A callback that finds the key held gets
// a nil error and runs the work beside the holder: reported. The near
// miss retries the same way and then tests the reply.
package errretry

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func finishReports(context.Context, string) {}

// Must report: the loop ends on the first nil error, a miss included.
func NotifyStopStress(ctx context.Context, rdb *redis.Client, plan string) {
	key := "NotifyStopStress:" + plan
	defer func() {
		rdb.Del(ctx, key)
	}()
	for i := 0; i < 3; i++ {
		err := rdb.SetNX(ctx, key, 1, 3*time.Second).Err() // want "only the error of SET NX is checked"
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		break
	}
	finishReports(ctx, plan)
}

// Near miss (silent): the reply decides.
func NotifyStopStressChecked(ctx context.Context, rdb *redis.Client, plan string) {
	key := "NotifyStopStressChecked:" + plan
	var ok bool
	for i := 0; i < 3; i++ {
		var err error
		ok, err = rdb.SetNX(ctx, key, 1, 3*time.Second).Result()
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		break
	}
	if !ok {
		return
	}
	defer rdb.Del(ctx, key)
	finishReports(ctx, plan)
}
