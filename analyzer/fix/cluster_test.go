package fix_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/internal/redistest"
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
