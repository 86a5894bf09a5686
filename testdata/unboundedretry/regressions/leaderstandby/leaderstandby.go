// Package leaderstandby pins standbys: a replica that waits for a leader
// lease between attempts, with no deadline, waits by design. A leader loop
// that never waits spins, and a job lock's loop with a sleep is the retry
// the analyzer is about.
package leaderstandby

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var nodeID = uuid.NewString()

func Standby(ctx context.Context, rdb *redis.Client, start func()) {
	for {
		if ok, err := rdb.SetNX(ctx, "cron:leader", nodeID, 30*time.Second).Result(); err == nil && ok {
			break
		}
		time.Sleep(10 * time.Second)
	}
	start()
}

type Elector struct{ rdb *redis.Client }

func (e *Elector) tryBecomeLeader(ctx context.Context) bool { // want tryBecomeLeader:"acquires lock via SET NX"
	ok, _ := e.rdb.SetNX(ctx, "shard:7:owner", nodeID, 30*time.Second).Result()
	return ok
}

func (e *Elector) Run(ctx context.Context) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for !e.tryBecomeLeader(ctx) {
		<-t.C
	}
}

func Spin(ctx context.Context, rdb *redis.Client) {
	for { // want `lock acquisition retried with no bound`
		if rdb.SetNX(ctx, "cron:leader", nodeID, 30*time.Second).Val() {
			return
		}
	}
}

func Claim(ctx context.Context, rdb *redis.Client, job string) {
	for { // want `lock acquisition retried with no bound, at a constant interval`
		if rdb.SetNX(ctx, "job:lock:"+job, uuid.NewString(), time.Minute).Val() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}
