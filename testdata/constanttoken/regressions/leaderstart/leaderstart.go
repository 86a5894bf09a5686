// Package leaderstart pins an alert aggregator elected among replicas:
// its constructor names the instance by its start time
// ("agg-<UnixNano>") and the leader key is taken with SETNX of that id,
// renewed while a GET shows the key holds it. A leader lease is held by
// the instance, and its start time names it: silent. The twin takes a
// lock per alert with the same id: every alert of the instance stores
// one value: reported.
package leaderstart

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const leaderElectionKey = "alert:aggregator:leader"

type Aggregator struct {
	rdb      *redis.Client
	leaderID string
	isLeader bool
}

func NewAggregator(rdb *redis.Client) *Aggregator {
	leaderID := fmt.Sprintf("agg-%d", time.Now().UnixNano())
	return &Aggregator{rdb: rdb, leaderID: leaderID}
}

// Near miss (silent): the instance's start time on the leader key.
func (a *Aggregator) tryRenewLeadership(ctx context.Context) {
	current, err := a.rdb.Get(ctx, leaderElectionKey).Result()
	if err == redis.Nil {
		ok, err := a.rdb.SetNX(ctx, leaderElectionKey, a.leaderID, 15*time.Second).Result()
		a.isLeader = err == nil && ok
		return
	}
	a.isLeader = err == nil && current == a.leaderID
}

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// Must report: one value for every alert the instance sends.
func (a *Aggregator) sendOnce(ctx context.Context, alert string, send func()) error {
	key := "alert:send:lock:" + alert
	ok, err := a.rdb.SetNX(ctx, key, a.leaderID, time.Minute).Result() // want "acquired with a non-unique token \\(field `leaderID`, `time.Now`"
	if err != nil || !ok {
		return err
	}
	defer release.Run(ctx, a.rdb, []string{key}, a.leaderID)
	send()
	return nil
}
