// Package namedvalue pins a leader-report key: the leader writes its name
// with a plain SET and followers read it; no one acquires it, so the SET
// is no overwrite of a lock. The twin that is a lock reports.
package namedvalue

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const leaderKey = "svc:leader"

func announce(ctx context.Context, rdb *redis.Client, node string) {
	rdb.Set(ctx, leaderKey, node, 15*time.Second)
}

func whoLeads(ctx context.Context, rdb *redis.Client) string {
	return rdb.Get(ctx, leaderKey).Val()
}

// Must report: a leader lock taken with a plain SET, never read as data.
func campaign(ctx context.Context, rdb *redis.Client, node string) {
	rdb.Set(ctx, "svc:leader:lock", node, 15*time.Second) // want "SET of lock key `\"svc:leader:lock\"` without NX overwrites whoever holds it"
}
