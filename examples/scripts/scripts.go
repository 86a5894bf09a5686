// Package scripts is the payout service's batch runner: it moved its lock
// into Lua scripts to make each step atomic, and kept the bugs of the
// plain commands, plus one the Cluster adds.
package scripts

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locklint/locklint/analyzer/fix"
)

// ErrBusy reports that another runner holds the merchant's payout lock.
var ErrBusy = errors.New("payout batch already running")

// acquireScript takes the lock and issues a fence number in one step, as
// fencing requires; the ledger rejects writes with an older fence.
var acquireScript = redis.NewScript(`if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return 0`)

// releaseScript was written to "make the release atomic".
var releaseScript = redis.NewScript(`return redis.call('DEL', KEYS[1])`) // BUG(unguardedscript): deletes whoever holds the lock now

//go:embed lua/renew.lua
var renewLua string // BUG(unguardedscript): the PEXPIRE in lua/renew.lua extends whoever holds the lock now

var renewScript = redis.NewScript(renewLua)

// Runner runs one merchant's payout batch at a time across the cluster.
type Runner struct {
	rdb    *redis.ClusterClient
	lease  time.Duration
	ledger *fix.FencedResource[string]
}

func payoutLock(merchant string) string  { return "payout:lock:" + merchant }
func payoutFence(merchant string) string { return "payout:fence:" + merchant }

// Run takes the lock, renews it while the batch runs, and releases it.
func (r *Runner) Run(ctx context.Context, merchant, token string, batch func(fence int64) error) error {
	keys := []string{payoutLock(merchant), payoutFence(merchant)}
	fence, err := acquireScript.Run(ctx, r.rdb, keys, token, r.lease.Milliseconds()).Int64() // BUG(crossslot): the lock and fence keys share no {hash tag}: CROSSSLOT on the cluster
	if err != nil {
		return fmt.Errorf("acquire payout lock %s: %w", merchant, err)
	}
	if fence == 0 {
		return ErrBusy
	}
	defer releaseScript.Run(context.WithoutCancel(ctx), r.rdb, []string{payoutLock(merchant)})

	stop := make(chan struct{})
	defer close(stop)
	go func() {
		t := time.NewTicker(r.lease / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				renewScript.Run(ctx, r.rdb, []string{payoutLock(merchant)}, r.lease.Milliseconds())
			}
		}
	}()
	return batch(fence)
}

// SafeRun is the correct version: fix.Do obtains the lock with a fence
// whose key shares the lock key's slot, renews it only while this runner
// holds it, and releases it with an owner check.
func (r *Runner) SafeRun(ctx context.Context, merchant string, batch func(ctx context.Context, fence int64) error) error {
	l, err := fix.Obtain(ctx, r.rdb, "payout:lock:{"+merchant+"}", r.lease, fix.WithFencing(), fix.WithWatchdog(10*r.lease))
	if err != nil {
		return fmt.Errorf("acquire payout lock %s: %w", merchant, err)
	}
	defer l.Release(context.WithoutCancel(ctx))
	return batch(l.Context(), l.Fence())
}

// Record writes a batch result to the ledger under its fence.
func (r *Runner) Record(fence int64, result string) error {
	return r.ledger.Write(fence, result)
}

// claimScript lets a runner take over an idle merchant's lock for a short
// catch-up batch: it claims the lock only when nobody holds it.
var claimScript = redis.NewScript(`if redis.call('GET', KEYS[1]) == nil then return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end return false`) // BUG(luanil): GET of a free key is false in Lua, never nil: the claim never succeeds

// Claim takes the merchant's payout lock if it is free.
func (r *Runner) Claim(ctx context.Context, merchant, token string) (bool, error) {
	err := claimScript.Run(ctx, r.rdb, []string{payoutLock(merchant)}, token, r.lease.Milliseconds()).Err()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	return err == nil, err
}
