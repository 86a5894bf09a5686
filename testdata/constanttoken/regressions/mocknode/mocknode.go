// Package mocknode pins the held-out false report of a leader lease whose
// holder is the member's NodeID, which only the package's test sets (to
// "node_mock_1"): the services that use it give each node its own id,
// and a test's fixed value is not what the code is given. The twin
// (fixed) sets a constant id in the constructor, and is reported.
package mocknode

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Member struct {
	ClusterID string
	NodeID    string
}

type Discovery struct {
	rdb   *redis.Client
	local *Member
	ttl   time.Duration
}

func New(rdb *redis.Client, local *Member, ttl time.Duration) *Discovery {
	return &Discovery{rdb: rdb, local: local, ttl: ttl}
}

var renew = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`)

// Near miss (silent): the node id is the caller's.
func (d *Discovery) Elect(ctx context.Context) (bool, error) {
	key := fmt.Sprintf("cluster:%s:leader", d.local.ClusterID)
	ok, err := d.rdb.SetNX(ctx, key, d.local.NodeID, d.ttl).Result()
	if err != nil || ok {
		return ok, err
	}
	n, err := renew.Run(ctx, d.rdb, []string{key}, d.local.NodeID, d.ttl.Milliseconds()).Int()
	return n == 1, err
}
