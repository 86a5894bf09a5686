// Package nottl pins issue 32's miss of a lock with no TTL at all: SETNX
// with a TTL of 0, a zero-valued option field, or SetArgs{Mode: "NX"}
// from a helper, and no EXPIRE anywhere. The keys name no lock; they are
// locks because releaseOwned, an owner-checked release, deletes them
// after the work. A holder that crashes keeps them forever. The near
// misses set a TTL in the acquire, or take it from a field that the
// constructor sets.
package nottl

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var compareAndDelete = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

func releaseOwned(ctx context.Context, rdb *redis.Client, key, token string) {
	compareAndDelete.Run(ctx, rdb, []string{key}, token)
}

type Options struct {
	TTL time.Duration
}

type Syncer struct {
	rdb  *redis.Client
	opts Options
}

// NewSyncer leaves the options at their zero value; nothing sets them.
func NewSyncer(rdb *redis.Client) *Syncer { return &Syncer{rdb: rdb} }

// Must report: TTL 0 is no expiry.
func (s *Syncer) SyncTenant(ctx context.Context, tenant string, sync func()) {
	key := "sync:" + tenant
	token := uuid.NewString()
	if !s.rdb.SetNX(ctx, key, token, 0).Val() { // want "lock key `key` acquired with no expiry"
		return
	}
	defer releaseOwned(ctx, s.rdb, key, token)
	sync()
}

// Must report: the option field is never set, so the TTL is 0.
func (s *Syncer) SyncCatalog(ctx context.Context, sync func()) {
	token := uuid.NewString()
	if !s.rdb.SetNX(ctx, "sync:catalog", token, s.opts.TTL).Val() { // want "lock key `\"sync:catalog\"` acquired with no expiry"
		return
	}
	defer releaseOwned(ctx, s.rdb, "sync:catalog", token)
	sync()
}

func nxArgs() redis.SetArgs { return redis.SetArgs{Mode: "NX"} }

// Must report: SetArgs from a helper with NX and no TTL.
func (s *Syncer) SyncPrices(ctx context.Context, sync func()) {
	token := uuid.NewString()
	if s.rdb.SetArgs(ctx, "sync:prices", token, nxArgs()).Val() != "OK" { // want "lock key `\"sync:prices\"` acquired with no expiry"
		return
	}
	defer releaseOwned(ctx, s.rdb, "sync:prices", token)
	sync()
}

// Near miss (silent): the same lock with a TTL in the acquire.
func (s *Syncer) SyncStock(ctx context.Context, sync func()) {
	token := uuid.NewString()
	if !s.rdb.SetNX(ctx, "sync:stock", token, time.Minute).Val() {
		return
	}
	defer releaseOwned(ctx, s.rdb, "sync:stock", token)
	sync()
}

// Leaser's lease is set by its constructor, from the caller.
type Leaser struct {
	rdb   *redis.Client
	lease time.Duration
}

func NewLeaser(rdb *redis.Client, lease time.Duration) *Leaser {
	return &Leaser{rdb: rdb, lease: lease}
}

// Near miss (silent): the TTL field is set where the Leaser is made.
func (l *Leaser) SyncLeases(ctx context.Context, sync func()) {
	token := uuid.NewString()
	if !l.rdb.SetNX(ctx, "sync:leases", token, l.lease).Val() {
		return
	}
	defer releaseOwned(ctx, l.rdb, "sync:leases", token)
	sync()
}
