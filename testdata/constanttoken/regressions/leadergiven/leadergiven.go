// Package leadergiven pins a price-feed leader elected among replicas:
// the elector is given its replica's id by its maker and takes the
// leader key with SET NX of that id, renewing when a GET shows the key
// holds it. The holder of a leader lease is the replica, and its id
// names it: silent. The twin is a job lock of a worker given its
// instance id the same way, taken per job: one value takes the lock for
// every job the instance runs, and the release's owner check cannot
// tell them apart: reported.
package leadergiven

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const leaderKey = "feed:price_leader"

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

type Elector struct {
	rdb       *redis.Client
	replicaID string
	isLeader  bool
}

func NewElector(rdb *redis.Client, replicaID string) *Elector {
	return &Elector{rdb: rdb, replicaID: replicaID}
}

// Near miss (silent): the replica's own id on the leader key.
func (e *Elector) tryAcquireOrRenew(ctx context.Context) {
	res, err := e.rdb.SetArgs(ctx, leaderKey, e.replicaID, redis.SetArgs{Mode: "NX", TTL: 15 * time.Second}).Result()
	if err != nil && err != redis.Nil {
		return
	}
	if res == "OK" {
		e.isLeader = true
		return
	}
	holder, err := e.rdb.Get(ctx, leaderKey).Result()
	e.isLeader = err == nil && holder == e.replicaID
}

type Worker struct {
	rdb        *redis.Client
	instanceID string
}

func NewWorker(rdb *redis.Client, instanceID string) *Worker {
	return &Worker{rdb: rdb, instanceID: instanceID}
}

// Must report: every job of the instance with one value.
func (w *Worker) Run(ctx context.Context, work func()) error {
	ok, err := w.rdb.SetNX(ctx, "jobs:sync:lock", w.instanceID, time.Minute).Result() // want "acquired with a non-unique token"
	if err != nil || !ok {
		return err
	}
	defer release.Run(context.WithoutCancel(ctx), w.rdb, []string{"jobs:sync:lock"}, w.instanceID)
	work()
	return nil
}
