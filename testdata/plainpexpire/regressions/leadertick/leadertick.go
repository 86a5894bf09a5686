// Package leadertick pins an edge hub's per-minute leader election: each
// tick it tries SETNX of its id with a TTL to the minute's end, returns
// at once when that wins, and otherwise reads the key and, finding its
// own id, stretches the lease with a plain EXPIRE: a renewal in two round
// trips, which extends a sibling's lease when the key lapsed between
// them: reported. The near miss stretches the lease it has just taken,
// on the success path: part of its own take.
package leadertick

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const leaderKey = "edge-hub-leader"

func TryLead(ctx context.Context, rdb *redis.Client, hubID string, ttl time.Duration) (bool, error) {
	ok, err := rdb.SetNX(ctx, leaderKey, hubID, ttl).Result()
	if err != nil {
		return false, err
	}
	if ok {
		return true, nil
	}
	val, err := rdb.Get(ctx, leaderKey).Result()
	if err != nil {
		return false, err
	}
	if val == hubID {
		_, err = rdb.Expire(ctx, leaderKey, 70*time.Second).Result() // want "GET on line 27 and this EXPIRE of lock key `leaderKey` are two round trips"
		return true, err
	}
	return false, nil
}

// Near miss: the EXPIRE runs only after this take won.
func TryLeadOnce(ctx context.Context, rdb *redis.Client, hubID string) (bool, error) {
	ok, err := rdb.SetNX(ctx, "edge-hub-leader:once", hubID, time.Minute).Result()
	if ok {
		rdb.Expire(ctx, "edge-hub-leader:once", 70*time.Second)
	}
	return ok, err
}
