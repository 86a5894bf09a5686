// Package leaderhostpid pins a leader lease held under "<hostname>-<pid>",
// made once where the election is wired and passed to its constructor: no
// two live processes share a host name and a pid, so the name is unique
// to the process that holds the lease. The twins use the same name for a
// per-job lock, which every acquisition of the process shares, and the
// pid alone for a leader, which every container's first process shares.
package leaderhostpid

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

const leaderKey = "producer:leader"

type Election struct {
	rdb    *redis.Client
	nodeID string
}

func NewElection(rdb *redis.Client, nodeID string) *Election {
	return &Election{rdb: rdb, nodeID: nodeID}
}

// Provide wires the election with the process's name.
func Provide(rdb *redis.Client) *Election {
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	return NewElection(rdb, fmt.Sprintf("%s-%d", host, os.Getpid()))
}

// Near miss (silent): the process holds the lease under its own name.
func (e *Election) tryBecomeLeader(ctx context.Context) bool {
	ok, err := e.rdb.SetNX(ctx, leaderKey, e.nodeID, 10*time.Second).Result()
	return err == nil && ok
}

// Must report: every job this process locks shares the name.
func (e *Election) lockJob(ctx context.Context, job string) bool {
	ok, err := e.rdb.SetNX(ctx, "job:lock:"+job, e.nodeID, 10*time.Second).Result() // want "lock key `\"job:lock:\" \\+ job` acquired with a non-unique token"
	return err == nil && ok
}

// Must report: a pid alone repeats across containers.
func elect(ctx context.Context, rdb *redis.Client) bool {
	ok, err := rdb.SetNX(ctx, "cron:leader", strconv.Itoa(os.Getpid()), 10*time.Second).Result() // want "lock key `\"cron:leader\"` acquired with a non-unique token"
	return err == nil && ok
}
