// Package tokens publishes product feeds under a per-SKU lock whose writes
// are fenced, and sweeps expired carts under a global lock: the lock code
// that gets the owner token or the fencing token wrong, beside the correct
// version built on github.com/locklint/locklint/analyzer/fix.
package tokens

import (
	"context"
	"crypto/rand"
	"errors"
	"os"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locklint/locklint/analyzer/fix"
)

// ErrBusy means another worker holds the lock.
var ErrBusy = errors.New("tokens: lock is held elsewhere")

const leaseTTL = 30 * time.Second

// Publisher writes feeds to a store that checks fences.
type Publisher struct {
	rdb   *redis.Client
	store *fix.FencedResource[string]
}

// NewPublisher returns a publisher over rdb.
func NewPublisher(rdb *redis.Client, store *fix.FencedResource[string]) *Publisher {
	return &Publisher{rdb: rdb, store: store}
}

func feedLock(sku string) string  { return "feed:{" + sku + "}:lock" }
func feedFence(sku string) string { return "feed:{" + sku + "}:fence" }

// PublishNaive identifies the holder by its host name and draws the fence
// with a second command once it holds the lock.
func (p *Publisher) PublishNaive(ctx context.Context, sku, body string) error {
	host, err := os.Hostname()
	if err != nil {
		return err
	}
	ok, err := p.rdb.SetNX(ctx, feedLock(sku), host, leaseTTL).Result() // BUG(constanttoken): every worker on this host stores the same token
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	defer fix.Release(ctx, p.rdb, feedLock(sku), host)
	fence, err := p.rdb.Incr(ctx, feedFence(sku)).Result() // BUG(splitfence): a pause before this INCR hands a stale holder the newest fence
	if err != nil {
		return err
	}
	return p.store.Write(fence, body)
}

// Publish is the correct version: a fresh token and the fence issued in
// one script with the acquire, and the write checked against the fence.
func (p *Publisher) Publish(ctx context.Context, sku, body string) error {
	l, err := fix.Obtain(ctx, p.rdb, feedLock(sku), leaseTTL, fix.WithFenceKey(feedFence(sku)))
	if errors.Is(err, fix.ErrNotObtained) {
		return ErrBusy
	}
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	return p.store.Write(l.Fence(), body)
}

// Sweeper removes expired carts, one worker at a time.
type Sweeper struct {
	rdb   *redis.Client
	every time.Duration
}

// NewSweeper returns a sweeper that runs every interval.
func NewSweeper(rdb *redis.Client, every time.Duration) *Sweeper {
	return &Sweeper{rdb: rdb, every: every}
}

const sweepLock = "carts:sweep:lock"

// RunNaive draws its token once at start-up and stores it in every round.
func (s *Sweeper) RunNaive(ctx context.Context, sweep func(context.Context) error) error {
	token := rand.Text()
	t := time.NewTicker(s.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		if !s.rdb.SetNX(ctx, sweepLock, token, leaseTTL).Val() { // BUG(constanttoken): the same token in every round, so last round's release passes this round's owner check
			continue
		}
		err := sweep(ctx)
		fix.Release(ctx, s.rdb, sweepLock, token)
		if err != nil {
			return err
		}
	}
}

// Run is the correct version: each round obtains the lock with its own
// token.
func (s *Sweeper) Run(ctx context.Context, sweep func(context.Context) error) error {
	t := time.NewTicker(s.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		err := fix.Do(ctx, s.rdb, sweepLock, leaseTTL, sweep)
		if err != nil && !errors.Is(err, fix.ErrNotObtained) {
			return err
		}
	}
}

// ClaimNaive is a job claim keyed by the clock: two workers that claim in
// the same tick store the same token.
func ClaimNaive(ctx context.Context, rdb *redis.Client, job string) (string, bool) {
	token := strconv.FormatInt(time.Now().UnixNano(), 10)
	ok := rdb.SetNX(ctx, "jobs:"+job+":lock", token, leaseTTL).Val() // BUG(constanttoken): a clock reading is neither unique nor secret
	return token, ok
}

// Claim is the correct version: 128 bits from crypto/rand per claim.
func Claim(ctx context.Context, rdb *redis.Client, job string) (string, bool) {
	token := rand.Text()
	return token, rdb.SetNX(ctx, "jobs:"+job+":lock", token, leaseTTL).Val()
}
