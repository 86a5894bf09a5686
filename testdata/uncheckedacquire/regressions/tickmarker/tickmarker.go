// Package tickmarker pins a heartbeat loop's sweeper election: each tick
// every worker tries a cleanup marker with SETNX of its id for one tick,
// never given back, and the one that took it sweeps expired bots, whose
// sweep deletes their queues (other keys). The reply guards the sweep:
// silent. The twin's branch only gives the lock back, and the work after
// it runs whether or not the lock was taken: reported.
package tickmarker

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const cleanupLockKey = "bridge:cleanup_lock"

type Bridge struct {
	rdb      *redis.Client
	workerID string
}

// Near miss (silent): the marker's reply decides whether to sweep.
func (b *Bridge) heartbeat(ctx context.Context, now time.Time) {
	acquired, _ := b.rdb.SetNX(ctx, cleanupLockKey, b.workerID, 10*time.Second).Result()
	if acquired {
		b.cleanupExpired(ctx, float64(now.Unix()))
	}
}

func (b *Bridge) cleanupExpired(ctx context.Context, cutoff float64) {
	expired, _ := b.rdb.ZRangeByScore(ctx, "bots:alive", &redis.ZRangeBy{Min: "-inf", Max: fmt.Sprint(cutoff)}).Result()
	for _, tok := range expired {
		b.rdb.Del(ctx, "bot:inbox:"+tok)
	}
}

func (b *Bridge) unlock(ctx context.Context, key string) {
	b.rdb.Del(ctx, key)
}

// Must report: the reply only decides the release.
func (b *Bridge) Rebuild(ctx context.Context, id string, work func()) {
	key := "cache:rebuild:lock:" + id
	ok, _ := b.rdb.SetNX(ctx, key, b.workerID, time.Minute).Result() // want "`ok` from SET NX only decides whether to release"
	if ok {
		b.unlock(ctx, key)
	}
	work()
}
