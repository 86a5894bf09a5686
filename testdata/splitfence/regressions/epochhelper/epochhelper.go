// Package epochhelper pins the held-out miss of a topic leader's epoch
// drawn by a helper that the election calls after its SETNX (eSPX's
// coordTopic and acquireEpoch): a node that pauses between the two
// draws its epoch after its lease lapsed and another node took the
// topic, and carries the newest epoch. The near miss draws the epoch in
// the acquire's own script.
package epochhelper

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Coordinator struct {
	rdb    *redis.Client
	nodeID string
	lease  time.Duration
	lead   func(ctx context.Context, topic string, epoch int64)
}

func leaderKey(topic string) string      { return "espx:topics:" + topic + ":leader" }
func leaderEpochKey(topic string) string { return "espx:topics:" + topic + ":leader_epoch" }

func (c *Coordinator) acquireEpoch(ctx context.Context, eKey string) (int64, error) {
	return c.rdb.Incr(ctx, eKey).Result() // want "INCR of fence `eKey`, drawn by `acquireEpoch` after the SETNX on line 32, is a separate round trip"
}

// Must report (at the helper's INCR).
func (c *Coordinator) coordTopic(ctx context.Context, topic string) {
	ok, err := c.rdb.SetNX(ctx, leaderKey(topic), c.nodeID, c.lease).Result()
	if err != nil || !ok {
		return
	}
	epoch, err := c.acquireEpoch(ctx, leaderEpochKey(topic))
	if err != nil {
		return
	}
	c.lead(ctx, topic, epoch)
}

var electScript = redis.NewScript(`
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  return redis.call("INCR", KEYS[2])
end
return 0`)

// Near miss (silent): the epoch is drawn with the acquire.
func (c *Coordinator) coordTopicAtomic(ctx context.Context, topic string) {
	epoch, err := electScript.Run(ctx, c.rdb, []string{leaderKey(topic), leaderEpochKey(topic)}, c.nodeID, c.lease.Milliseconds()).Int64()
	if err != nil || epoch == 0 {
		return
	}
	c.lead(ctx, topic, epoch)
}

func (c *Coordinator) countElection(ctx context.Context, key string) {
	c.rdb.Incr(ctx, key)
}

func (c *Coordinator) readEpoch(ctx context.Context, eKey string) (int64, error) {
	return c.rdb.Incr(ctx, eKey).Result()
}

// Near misses (silent): a statistics counter drawn by a helper after the
// take; an epoch helper called where nothing is acquired (a follower's
// view).
func (c *Coordinator) coordCounted(ctx context.Context, topic string) {
	ok, err := c.rdb.SetNX(ctx, leaderKey(topic), c.nodeID, c.lease).Result()
	if err != nil || !ok {
		return
	}
	c.countElection(ctx, "stats:elections:"+topic)
}

func (c *Coordinator) follow(ctx context.Context, topic string) int64 {
	n, _ := c.readEpoch(ctx, leaderEpochKey(topic))
	return n
}
