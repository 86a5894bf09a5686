// Package leader elects one instance of a service as leader with a Redis
// lease that the leader keeps renewing.
package leader

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locklint/locklint/analyzer/fix"
)

const leaderKey = "service:{billing}:leader"

// Elector is the hand-rolled election found in many services.
type Elector struct {
	rdb   redis.UniversalClient
	id    string
	lease time.Duration
}

// NewElector returns an elector. Its identity is drawn once, here, and
// every campaign stores it: a leader lease names the process that holds
// it, as Kubernetes' leases name theirs.
func NewElector(rdb redis.UniversalClient) *Elector {
	return &Elector{rdb: rdb, id: rand.Text(), lease: 15 * time.Second}
}

// Campaign tries once to become leader, then keeps the lease alive.
func (e *Elector) Campaign(ctx context.Context) (bool, error) {
	ok, err := e.rdb.SetNX(ctx, leaderKey, e.id, e.lease).Result()
	if err != nil || !ok {
		return false, err
	}
	go e.keepAlive(ctx)
	return true, nil
}

func (e *Elector) keepAlive(ctx context.Context) {
	t := time.NewTicker(e.lease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			e.rdb.PExpire(ctx, leaderKey, e.lease) // BUG(plainpexpire): extends whoever leads now, even another instance
		}
	}
}

// Resign steps down.
func (e *Elector) Resign(ctx context.Context) error {
	return e.rdb.Del(ctx, leaderKey).Err() // BUG(unconditionaldel): removes the new leader's lease if this one expired
}

// Lead is the correct version: the lease is renewed by an owner-checked
// keep-alive for as long as this instance leads (no maximum hold), and
// lead's context ends if leadership is lost.
func Lead(ctx context.Context, rdb redis.UniversalClient, lead func(ctx context.Context) error) error {
	l, err := fix.Obtain(ctx, rdb, leaderKey, 15*time.Second, fix.WithKeepAlive())
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	return lead(l.Context())
}
