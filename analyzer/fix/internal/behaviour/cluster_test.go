package behaviour_test

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/redis/go-redis/v9"
)

func TestClusterFencedLockCycle(t *testing.T) {
	start := time.Now()
	addrs := redistest.StartCluster(t, 3)
	t.Logf("cluster up in %s", time.Since(start))
	ctx := ctxT(t)
	admin := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	defer admin.Close()
	// The restricted user also needs what the cluster client itself sends
	// to discover the slot map.
	acl := []any{"ACL", "SETUSER", "locker", "reset", "on", ">locker-pw", "~*", "resetchannels", "-@all", "+cluster|slots"}
	for _, c := range aclCommands {
		acl = append(acl, c)
	}
	for _, addr := range addrs {
		c := redis.NewClient(&redis.Options{Addr: addr})
		if err := c.Do(ctx, acl...).Err(); err != nil {
			t.Fatal(err)
		}
		c.Close()
	}
	sent := new(atomic.Int64)
	client := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs, Username: "locker", Password: "locker-pw"})
	defer client.Close()
	client.AddHook(countHook{sent})

	// Keys on all three masters, each with its fence counter beside it.
	for _, key := range []string{"lock:{a}", "lock:{b}", "lock:{c}", "feed"} {
		var last int64
		for range 3 {
			l, err := fix.Obtain(ctx, client, key, 10*time.Second, fix.WithFencing())
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			if l.Fence() <= last {
				t.Fatalf("%s: fence %d after %d", key, l.Fence(), last)
			}
			last = l.Fence()
			if err := l.Refresh(ctx, 20*time.Second); err != nil {
				t.Fatalf("%s: refresh: %v", key, err)
			}
			if pttl := admin.PTTL(ctx, key).Val(); pttl < 10*time.Second {
				t.Fatalf("%s: PTTL %s after refresh", key, pttl)
			}
			if err := fix.Refresh(ctx, client, key, "not-the-owner", time.Hour); !errors.Is(err, fix.ErrNotHeld) {
				t.Fatalf("%s: foreign refresh: %v", key, err)
			}
			if err := l.Release(ctx); err != nil {
				t.Fatalf("%s: release: %v", key, err)
			}
			if err := fix.Release(ctx, client, key, l.Token()); !errors.Is(err, fix.ErrNotHeld) {
				t.Fatalf("%s: second release: %v", key, err)
			}
		}
	}

	// Waiting acquisitions use the turn key, which must share the slot too.
	holder, err := fix.Obtain(ctx, client, "lock:{a}", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		holder.Release(context.Background())
	}()
	l, err := fix.Obtain(ctx, client, "lock:{a}", time.Second, fix.WithFencing(), fix.WithMaxWait(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}

	before := sent.Load()
	_, err = fix.Obtain(ctx, client, "lock:{a}", time.Second, fix.WithFenceKey("fence:{b}"))
	if !errors.Is(err, fix.ErrCrossSlot) {
		t.Fatalf("cross-slot fence key: err = %v", err)
	}
	if n := sent.Load() - before; n != 0 {
		t.Errorf("cross-slot check sent %d commands", n)
	}
}

// TestClusterStalledNodeBoundedByDeadlines stalls the network to one
// master of a Cluster: calls on its slots return typed errors within their
// deadlines, the other masters keep serving locks meanwhile, and the held
// lock on the stalled master is usable again once the network is back.
func TestClusterStalledNodeBoundedByDeadlines(t *testing.T) {
	const (
		deadline = 300 * time.Millisecond
		slack    = 250 * time.Millisecond
	)
	addrs := redistest.StartCluster(t, 3)
	ctx := ctxT(t)
	admin := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	defer admin.Close()
	slots := slotMap(t, ctx, admin)
	proxies, viaProxies := proxySlots(t, addrs, slots)
	client := redis.NewClusterClient(&redis.ClusterOptions{
		ClusterSlots:          viaProxies,
		ContextTimeoutEnabled: true,
		MaxRetries:            -1,
	})
	defer client.Close()

	// One key on the master to stall, one on another master.
	stalled, other, stalledMaster := "lock:{a}", otherMasterKey(t, ctx, admin, slots, "lock:{a}"), masterOf(t, ctx, admin, slots, "lock:{a}")
	held, err := fix.Obtain(ctx, client, stalled, 10*time.Second, fix.WithFencing(), fix.WithReleaseTimeout(deadline))
	if err != nil {
		t.Fatal(err)
	}

	proxies[stalledMaster].Stall()
	timed := func(what string, call func(context.Context) error, bound time.Duration) {
		t.Helper()
		cctx, cancel := context.WithTimeout(ctx, deadline)
		defer cancel()
		start := time.Now()
		err := call(cctx)
		took := time.Since(start)
		if err == nil {
			t.Errorf("%s on the stalled master succeeded", what)
		}
		if took > bound+slack {
			t.Errorf("%s took %s, bound %s + %s", what, took, bound, slack)
		}
		t.Logf("%s: %s (slack %s): %v", what, took.Round(time.Millisecond), (took - bound).Round(time.Millisecond), err)
	}
	timed("Obtain", func(ctx context.Context) error {
		_, err := fix.Obtain(ctx, client, stalled+":2", time.Second)
		if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, fix.ErrNotObtained) {
			t.Errorf("Obtain error is neither a deadline nor ErrNotObtained: %v", err)
		}
		return err
	}, deadline)
	timed("Lock.Refresh", func(ctx context.Context) error { return held.Refresh(ctx, 10*time.Second) }, deadline)

	// The other masters serve locks while one is stalled.
	l, err := fix.Obtain(ctx, client, other, time.Second, fix.WithFencing())
	if err != nil {
		t.Fatalf("%s on a healthy master: %v", other, err)
	}
	if err := l.Release(ctx); err != nil {
		t.Fatalf("%s on a healthy master: release: %v", other, err)
	}

	proxies[stalledMaster].Resume()
	if err := held.Refresh(ctx, 10*time.Second); err != nil {
		t.Fatalf("refresh after the network is back: %v", err)
	}
	if err := held.Release(ctx); err != nil {
		t.Fatalf("release after the network is back: %v", err)
	}
	if n := admin.Exists(ctx, stalled).Val(); n != 0 {
		t.Errorf("%s still exists after release", stalled)
	}
}

// TestClusterMasterCrash kills one master of a Cluster (no replicas, no
// persistence) with SIGKILL while a watched lock lives on it: calls on its
// slots fail within their deadlines, the other masters keep serving locks,
// and once the master is back (empty: the lock is gone, as fencing
// assumes) the watchdog reports the loss and new acquisitions work.
func TestClusterMasterCrash(t *testing.T) {
	const (
		ttl      = 600 * time.Millisecond
		deadline = 300 * time.Millisecond
		slack    = 250 * time.Millisecond
	)
	nodes := redistest.StartRestartableCluster(t, 3)
	addrs := make([]string, len(nodes))
	for i, n := range nodes {
		addrs[i] = n.Addr
	}
	ctx := ctxT(t)
	admin := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	defer admin.Close()
	slots := slotMap(t, ctx, admin)
	crashed, other := "lock:{a}", otherMasterKey(t, ctx, admin, slots, "lock:{a}")
	var victim *redistest.Restartable
	for _, n := range nodes {
		if n.Addr == masterOf(t, ctx, admin, slots, crashed) {
			victim = n
		}
	}
	client := redis.NewClusterClient(&redis.ClusterOptions{
		Addrs: addrs, ContextTimeoutEnabled: true, MaxRetries: -1,
		DialTimeout: 100 * time.Millisecond, ReadTimeout: deadline, WriteTimeout: deadline,
	})
	defer client.Close()

	l, err := fix.Obtain(ctx, client, crashed, ttl, fix.WithFencing(), fix.WithWatchdog(time.Minute), fix.WithReleaseTimeout(deadline))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(ttl / 2) // a renewal or two: the watchdog is in its loop
	killed := time.Now()
	victim.Kill()

	bounded := func(what string, call func(context.Context) error) {
		t.Helper()
		cctx, cancel := context.WithTimeout(ctx, deadline)
		defer cancel()
		start := time.Now()
		err := call(cctx)
		if took := time.Since(start); took > deadline+slack {
			t.Errorf("%s took %s, deadline %s + %s", what, took, deadline, slack)
		}
		if err == nil {
			t.Errorf("%s on the killed master succeeded", what)
		}
		t.Logf("%s on the killed master: %v", what, err)
	}
	bounded("Obtain", func(ctx context.Context) error {
		_, err := fix.Obtain(ctx, client, crashed+":2", ttl)
		return err
	})
	l2, err := fix.Obtain(ctx, client, other, ttl, fix.WithFencing())
	if err != nil {
		t.Fatalf("%s on a surviving master: %v", other, err)
	}
	if err := l2.Release(ctx); err != nil {
		t.Fatalf("%s on a surviving master: release: %v", other, err)
	}

	victim.Restart()
	redistest.WaitClusterOK(t, addrs, 20*time.Second)
	t.Logf("master down %s", time.Since(killed).Round(time.Millisecond))
	if n := admin.Exists(ctx, crashed).Val(); n != 0 {
		t.Fatal("without persistence the lock key came back")
	}
	select {
	case <-l.Context().Done():
	case <-time.After(2 * ttl):
		t.Fatal("watchdog did not report the loss")
	}
	if cause := context.Cause(l.Context()); !errors.Is(cause, fix.ErrLost) {
		t.Errorf("cause = %v, want ErrLost", cause)
	} else {
		t.Logf("loss reported %s after the kill: %v", time.Since(killed).Round(time.Millisecond), cause)
	}
	if err := l.Release(ctx); err == nil {
		t.Error("release of the lost lock succeeded")
	}
	l3, err := fix.Obtain(ctx, client, crashed, ttl, fix.WithFencing(), fix.WithMaxWait(5*time.Second))
	if err != nil {
		t.Fatalf("obtain after the restart: %v", err)
	}
	if err := l3.Release(ctx); err != nil {
		t.Fatal(err)
	}
}

// proxySlots puts every master behind its own fault proxy and returns the
// proxies by master address, and a ClusterSlots option that gives a client
// the proxies' addresses as the slot map, so all its traffic goes through
// them.
func proxySlots(t *testing.T, addrs []string, slots []redis.ClusterSlot) (map[string]*redistest.Proxy, func(context.Context) ([]redis.ClusterSlot, error)) {
	t.Helper()
	proxies := map[string]*redistest.Proxy{}
	for _, addr := range addrs {
		proxies[addr] = redistest.StartProxy(t, addr)
	}
	via := make([]redis.ClusterSlot, len(slots))
	for i, s := range slots {
		via[i] = redis.ClusterSlot{Start: s.Start, End: s.End}
		for _, n := range s.Nodes {
			p := proxies[n.Addr]
			if p == nil {
				t.Fatalf("slot map names %s, not one of %v", n.Addr, addrs)
			}
			via[i].Nodes = append(via[i].Nodes, redis.ClusterNode{ID: n.ID, Addr: p.Addr})
		}
	}
	return proxies, func(context.Context) ([]redis.ClusterSlot, error) { return via, nil }
}

// masterOf returns the address of the master that serves key.
func masterOf(t *testing.T, ctx context.Context, admin *redis.ClusterClient, slots []redis.ClusterSlot, key string) string {
	t.Helper()
	slot := int(admin.ClusterKeySlot(ctx, key).Val())
	for _, s := range slots {
		if s.Start <= slot && slot <= s.End {
			return s.Nodes[0].Addr
		}
	}
	t.Fatalf("no master serves %s (slot %d)", key, slot)
	return ""
}

// otherMasterKey returns a lock key served by another master than key's.
func otherMasterKey(t *testing.T, ctx context.Context, admin *redis.ClusterClient, slots []redis.ClusterSlot, key string) string {
	t.Helper()
	for _, k := range []string{"lock:{b}", "lock:{c}", "lock:{d}", "lock:{e}", "lock:{f}", "lock:{g}", "lock:{h}"} {
		if masterOf(t, ctx, admin, slots, k) != masterOf(t, ctx, admin, slots, key) {
			return k
		}
	}
	t.Fatalf("no key found on another master than %s", key)
	return ""
}

// slotMap reads the masters' slot ranges (CLUSTER SHARDS, Redis 7+) in the
// form a ClusterClient takes for its ClusterSlots option.
func slotMap(t *testing.T, ctx context.Context, admin *redis.ClusterClient) []redis.ClusterSlot {
	t.Helper()
	shards, err := admin.ClusterShards(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	var slots []redis.ClusterSlot
	for _, sh := range shards {
		var nodes []redis.ClusterNode
		for _, n := range sh.Nodes {
			if n.Role == "master" {
				nodes = append(nodes, redis.ClusterNode{ID: n.ID, Addr: net.JoinHostPort(n.IP, strconv.FormatInt(n.Port, 10))})
			}
		}
		for _, r := range sh.Slots {
			slots = append(slots, redis.ClusterSlot{Start: int(r.Start), End: int(r.End), Nodes: nodes})
		}
	}
	return slots
}
