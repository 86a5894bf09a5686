// Package leaderlease pins leader leases: their holder is a process, so an
// identity drawn once for the process (a UUID made at start-up or by the
// elector's constructor) is a token unique to its holder. An identity
// that two processes can share (a host name, a constant) is not, and the
// same drawn-once identity on a lock that is not a leader lease is shared
// by every acquisition of one instance.
package leaderlease

import (
	"context"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var nodeID = uuid.NewString()

type Elector struct {
	rdb *redis.Client
	id  string
}

func NewElector(rdb *redis.Client) *Elector { return &Elector{rdb: rdb, id: uuid.NewString()} }

func (e *Elector) Campaign(ctx context.Context, shard string) (bool, error) {
	return e.rdb.SetNX(ctx, "election:"+shard, e.id, 15*time.Second).Result()
}

func BecomeLeader(ctx context.Context, rdb *redis.Client) (bool, error) {
	return rdb.SetNX(ctx, "cron:leader", nodeID, 30*time.Second).Result()
}

func LeaderByHost(ctx context.Context, rdb *redis.Client) (bool, error) {
	host, _ := os.Hostname()
	return rdb.SetNX(ctx, "report:leader", host, 30*time.Second).Result() // want "lock key `\"report:leader\"` acquired with a non-unique token \\(`os.Hostname`\\)"
}

func LeaderByConstant(ctx context.Context, rdb *redis.Client) (bool, error) {
	return rdb.SetNX(ctx, "sync:leader", "1", 30*time.Second).Result() // want "lock key `\"sync:leader\"` acquired with a non-unique token \\(the constant `\"1\"`\\)"
}

// Worker guards each job with its instance's identity: two goroutines of
// one process both hold a job lock.
type Worker struct {
	rdb *redis.Client
	id  string
}

func NewWorker(rdb *redis.Client) *Worker { return &Worker{rdb: rdb, id: uuid.NewString()} }

func (w *Worker) Claim(ctx context.Context, job string) (bool, error) {
	return w.rdb.SetNX(ctx, "job:lock:"+job, w.id, time.Minute).Result() // want "lock key `\"job:lock:\" \\+ job` acquired with a non-unique token \\(field `id`, set once in `NewWorker`\\)"
}
