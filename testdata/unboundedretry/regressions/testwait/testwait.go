// Package testwait pins a test that waits for a lock with no bound of its
// own: the test binary's timeout bounds it, and a test file is reported
// only with -tests. The same loop in the package's code is reported.
package testwait

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

func Wait(ctx context.Context, rdb *redis.Client, key string) {
	for { // want `lock acquisition retried with no bound, at a constant interval`
		if rdb.SetNX(ctx, key, uuid.NewString(), time.Minute).Val() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
