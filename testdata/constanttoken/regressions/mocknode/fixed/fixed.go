// Package fixed is mocknode's lease with the node id fixed by the
// constructor: every node holds the lease under one name.
package fixed

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Member struct{ NodeID string }

type Discovery struct {
	rdb   *redis.Client
	local *Member
}

func New(rdb *redis.Client) *Discovery {
	return &Discovery{rdb: rdb, local: &Member{NodeID: "node-1"}}
}

var renew = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`)

// Must report.
func (d *Discovery) Elect(ctx context.Context) (bool, error) {
	ok, err := d.rdb.SetNX(ctx, "cluster:leader", d.local.NodeID, time.Second).Result() // want "non-unique token"
	if err != nil || ok {
		return ok, err
	}
	n, err := renew.Run(ctx, d.rdb, []string{"cluster:leader"}, d.local.NodeID, 1000).Int()
	return n == 1, err
}
