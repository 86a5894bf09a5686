// Package cooldownentry pins an exported Lock that only sets a key with
// NX and a TTL and lets it expire: nothing in the package deletes, renews
// or compares a key a caller passes (the only delete is a lock type's, on
// its own field), so the constant value guards nothing here. The lock
// type's acquire keeps its finding, its release comparing the value;
// withunlock, the same Lock next to a package-level Unlock, reports.
package cooldownentry

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrBusy = errors.New("busy")

// Lock holds name for ttl; it is never unlocked, it expires.
func Lock(ctx context.Context, rdb *redis.Client, name string, ttl time.Duration) error {
	if !rdb.SetNX(ctx, name, "1", ttl).Val() {
		return ErrBusy
	}
	return nil
}

// Guard is a lock type: it takes and drops its own key.
type Guard struct {
	rdb  *redis.Client
	name string
}

func (g *Guard) Take(ctx context.Context) bool {
	return g.rdb.SetNX(ctx, g.name, "held", time.Minute).Val() // want "acquired with a non-unique token"
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func (g *Guard) Drop(ctx context.Context) {
	g.rdb.Eval(ctx, unlock, []string{g.name}, "held")
}
