// Package counterttl pins a session's message sequence: a script INCRs
// seq:<session> and sets its PEXPIRE, after a SETNX seeds the counter
// from the database. The PEXPIRE is a counter's TTL, not a lock's
// renewal. The twin extends a lock in a script with no owner check.
package counterttl

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var seqScript = redis.NewScript(`
local n = redis.call("INCR", KEYS[1])
redis.call("PEXPIRE", KEYS[1], ARGV[1])
return n
`)

var extendScript = redis.NewScript(`return redis.call("PEXPIRE", KEYS[1], ARGV[1])`) // want "Lua line 1: PEXPIRE of KEYS\\[1\\]"

type Handler struct {
	rdb *redis.Client
}

func (h *Handler) seed(ctx context.Context, key string, max int64) error {
	return h.rdb.SetNX(ctx, key, max, 7*24*time.Hour).Err()
}

// Near miss (silent): the next sequence number of a session.
func (h *Handler) Next(ctx context.Context, session string, max int64) (int64, error) {
	key := "seq:" + session
	if err := h.seed(ctx, key, max); err != nil {
		return 0, err
	}
	return seqScript.Run(ctx, h.rdb, []string{key}, (7 * 24 * time.Hour).Milliseconds()).Int64()
}

// Must report: a lock extended whoever holds it.
func (h *Handler) Extend(ctx context.Context, job string) error {
	return extendScript.Run(ctx, h.rdb, []string{"lock:" + job}, 30000).Err()
}
