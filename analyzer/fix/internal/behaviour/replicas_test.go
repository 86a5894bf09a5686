package behaviour_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/redis/go-redis/v9"
)

// replicated starts a primary and n replicas of it, and waits until the
// primary sees them all online.
func replicated(t *testing.T, n int) (primary *redistest.Server, replicas []*redistest.Server) {
	t.Helper()
	// No delay before a full sync: replicas come online at once.
	primary = redistest.Start(t, "--repl-diskless-sync-delay", "0")
	host, port, _ := net.SplitHostPort(primary.Addr)
	for range n {
		// DEBUG SLEEP lets a test hold a replica's acknowledgments back.
		replicas = append(replicas, redistest.Start(t, "--replicaof", host, port, "--enable-debug-command", "yes"))
	}
	waitReplicas(t, primary.Client(t, nil), n)
	return primary, replicas
}

func waitReplicas(t *testing.T, admin *redis.Client, n int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		info := admin.Info(context.Background(), "replication").Val()
		if strings.Count(info, "state=online") == n && strings.Contains(info, "connected_slaves:"+string(rune('0'+n))) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("replicas not online after 15s:\n%s", info)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestReplicasAcknowledgeLock takes, renews and releases a fenced lock
// that must reach two replicas, and reads it from them.
func TestReplicasAcknowledgeLock(t *testing.T) {
	primary, reps := replicated(t, 2)
	c := primary.Client(t, nil)
	ctx := ctxT(t)
	for _, opts := range [][]fix.Option{
		{fix.WithReplicas(2, time.Second)},
		{fix.WithReplicas(2, time.Second), fix.WithFencing()},
		{fix.WithReplicas(1, time.Second), fix.WithFencing(), fix.WithMaxWait(time.Second)},
	} {
		l, err := fix.Obtain(ctx, c, "lock:{rep}", 5*time.Second, opts...)
		if err != nil {
			t.Fatalf("obtain with replicas: %v", err)
		}
		// Acknowledged means the replicas have it now, not eventually.
		for i, r := range reps {
			if got := r.Client(t, nil).Get(ctx, "lock:{rep}").Val(); got != l.Token() {
				t.Errorf("replica %d holds %q right after Obtain, want the token", i, got)
			}
		}
		if err := l.Refresh(ctx, 10*time.Second); err != nil {
			t.Errorf("refresh with replicas: %v", err)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTooFewReplicasReleases asks for more replicas than acknowledge: the
// Obtain fails with ErrTooFewReplicas and ErrNotObtained within the WAIT
// timeout, and leaves no token behind; the same when a replica stops
// mid-run, where a renewal keeps the lock and reports the shortfall.
func TestTooFewReplicasReleases(t *testing.T) {
	primary, reps := replicated(t, 2)
	c := primary.Client(t, nil)
	ctx := ctxT(t)
	for _, opts := range [][]fix.Option{
		{fix.WithReplicas(3, 200*time.Millisecond)},
		{fix.WithReplicas(3, 200*time.Millisecond), fix.WithFencing()},
		{fix.WithReplicas(3, 200*time.Millisecond), fix.WithMaxWait(time.Second)},
	} {
		start := time.Now()
		_, err := fix.Obtain(ctx, c, "lock:{short}", 5*time.Second, opts...)
		took := time.Since(start)
		if !errors.Is(err, fix.ErrTooFewReplicas) || !errors.Is(err, fix.ErrNotObtained) {
			t.Fatalf("obtain with 3 of 2 replicas: %v, want ErrTooFewReplicas and ErrNotObtained", err)
		}
		if took > time.Second {
			t.Errorf("obtain took %s, want about the 200ms WAIT timeout", took)
		}
		if got := c.Get(ctx, "lock:{short}").Val(); got != "" {
			t.Errorf("key holds %q after the failed Obtain", got)
		}
		t.Logf("%v", err)
	}

	// Timeouts that must be met are generous: a loaded machine can take a
	// replica's acknowledgment past 100ms.
	l, err := fix.Obtain(ctx, c, "lock:{mid}", 5*time.Second, fix.WithReplicas(2, 2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	_ = reps[1].Client(t, nil).ShutdownNoSave(ctx).Err()
	waitReplicas(t, c, 1)
	before := time.Now()
	// The first renewal on this server: a WAIT after a rejected command
	// form or an unknown script would be waited for in full each time.
	err = l.Refresh(ctx, 20*time.Second)
	if !errors.Is(err, fix.ErrTooFewReplicas) {
		t.Errorf("refresh with a replica gone: %v, want ErrTooFewReplicas", err)
	}
	if took := time.Since(before); took > 3*time.Second {
		t.Errorf("refresh took %s, want about the 2s WAIT timeout", took)
	}
	if pttl := c.PTTL(ctx, "lock:{mid}").Val(); pttl < 15*time.Second {
		t.Errorf("lease %s after the short refresh, want it extended on the primary", pttl)
	}
	if l.Until().Before(before.Add(15 * time.Second)) {
		t.Errorf("Until %s, want the extended lease", time.Until(l.Until()))
	}
	if l.Context().Err() != nil {
		t.Errorf("the lock was given up: %v", context.Cause(l.Context()))
	}
	if _, err := fix.Obtain(ctx, c, "lock:{mid2}", 5*time.Second, fix.WithReplicas(2, 200*time.Millisecond)); !errors.Is(err, fix.ErrTooFewReplicas) {
		t.Errorf("obtain with a replica gone: %v, want ErrTooFewReplicas", err)
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
	m, err := fix.Obtain(ctx, c, "lock:{mid2}", 5*time.Second, fix.WithReplicas(1, 2*time.Second))
	if err != nil {
		t.Fatalf("obtain with the replica left: %v", err)
	}
	_ = m.Release(ctx)
}

// TestHandedOverLockConfirmsReplicas hands a lock to a waiter that wants
// more replicas than there are: the hand-off is written by the releaser,
// so the waiter confirms it, falls short, and passes the lock on.
func TestHandedOverLockConfirmsReplicas(t *testing.T) {
	primary, _ := replicated(t, 1)
	c := primary.Client(t, nil)
	ctx := ctxT(t)
	holder, err := fix.Obtain(ctx, c, "lock:{hand}", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		l   *fix.Lock
		err error
	}
	short, ok := make(chan result, 1), make(chan result, 1)
	go func() {
		l, err := fix.Obtain(ctx, c, "lock:{hand}", 5*time.Second, fix.WithReplicas(2, 100*time.Millisecond), fix.WithMaxWait(5*time.Second))
		short <- result{l, err}
	}()
	time.Sleep(100 * time.Millisecond)
	go func() {
		// Generous: this acknowledgment must arrive even on a loaded machine.
		l, err := fix.Obtain(ctx, c, "lock:{hand}", 5*time.Second, fix.WithReplicas(1, 2*time.Second), fix.WithMaxWait(5*time.Second))
		ok <- result{l, err}
	}()
	time.Sleep(100 * time.Millisecond)
	if err := holder.Release(ctx); err != nil {
		t.Fatal(err)
	}
	r := <-short
	if !errors.Is(r.err, fix.ErrTooFewReplicas) || !errors.Is(r.err, fix.ErrNotObtained) {
		t.Fatalf("waiter wanting 2 of 1 replicas: %v, %v", r.l, r.err)
	}
	r = <-ok
	if r.err != nil {
		t.Fatalf("next waiter: %v", r.err)
	}
	if got := c.Get(ctx, "lock:{hand}").Val(); got != r.l.Token() {
		t.Errorf("key holds %q, want the next waiter's token", got)
	}
	_ = r.l.Release(ctx)
}

// TestFsyncedReplicasNeedWAITAOF: a server without WAITAOF (before Redis
// 7.2) cannot acknowledge, so the Obtain fails and removes its token.
func TestFsyncedReplicasNeedWAITAOF(t *testing.T) {
	primary, _ := replicated(t, 1)
	c := primary.Client(t, nil)
	ctx := ctxT(t)
	if v := c.Do(ctx, "WAITAOF", "0", "0", "0").Err(); v == nil {
		t.Skip("this redis-server has WAITAOF")
	}
	_, err := fix.Obtain(ctx, c, "lock:{aof}", 5*time.Second, fix.WithFsyncedReplicas(1, 100*time.Millisecond), fix.WithFencing())
	if !errors.Is(err, fix.ErrTooFewReplicas) || !strings.Contains(err.Error(), "WAITAOF") {
		t.Fatalf("obtain with WAITAOF on a server without it: %v", err)
	}
	if got := c.Get(ctx, "lock:{aof}").Val(); got != "" {
		t.Errorf("key holds %q after the failed Obtain", got)
	}
}
