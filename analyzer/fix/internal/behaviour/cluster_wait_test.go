package behaviour_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/redis/go-redis/v9"
)

// TestClusterWaitersWoken runs the waiting path on a 3-master Cluster, as
// a restricted user with the wake-up channels: for a key on each master a
// waiter of one client, queued behind another client's lock, is woken by
// the shard channel in the key's slot when the lock is released (the
// release script publishes there); waiters of one client hand the lock on
// among themselves, fenced; and no shard subscription is left.
func TestClusterWaitersWoken(t *testing.T) {
	addrs := redistest.StartCluster(t, 3)
	ctx := ctxT(t)
	admin := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	defer admin.Close()
	for _, addr := range addrs {
		c := redis.NewClient(&redis.Options{Addr: addr})
		setWaiterUser(t, c, "+cluster|slots")
		c.Close()
	}
	dial := func() *redis.ClusterClient {
		c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs, Username: "waiter", Password: "waiter-pw"})
		t.Cleanup(func() { c.Close() })
		return c
	}
	holders, waiters := dial(), dial()
	backoff := fix.WithBackoff(fix.Backoff{Base: 10 * time.Millisecond, Cap: 3 * time.Second})
	keys := []string{"lock:{a}", "lock:{b}", "lock:{c}"}
	for _, key := range keys {
		holder, err := fix.Obtain(ctx, holders, key, 10*time.Second, fix.WithFencing(), fix.WithMaxWait(time.Second))
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		got := make(chan *fix.Lock, 1)
		go func() {
			l, err := fix.Obtain(ctx, waiters, key, time.Second, fix.WithFencing(), fix.WithMaxWait(5*time.Second), backoff)
			if err != nil {
				t.Errorf("%s: %v", key, err)
			}
			got <- l
		}()
		eventually(t, 2*time.Second, key+": the waiter queued on the server", func() bool { return len(serverQueue(t, admin, key)) == 1 })
		eventually(t, time.Second, key+": the waiter subscribed", func() bool { return shardSubscribers(t, admin, key+":wake") == 1 })
		released := time.Now()
		if err := holder.Release(ctx); err != nil {
			t.Fatalf("%s: release: %v", key, err)
		}
		l := <-got
		if l == nil {
			t.FailNow()
		}
		if d := time.Since(released); d > 200*time.Millisecond {
			t.Errorf("%s: waiter obtained the lock %s after the release, want a wake-up (the Cap is 3 s)", key, d)
		}
		if l.Fence() != holder.Fence()+1 {
			t.Errorf("%s: fence %d after %d", key, l.Fence(), holder.Fence())
		}
		if err := l.Release(ctx); err != nil {
			t.Fatalf("%s: release: %v", key, err)
		}
		t.Logf("%s: woken %s after the release", key, time.Since(released).Round(time.Millisecond))
	}

	// Waiters of one client take turns in process.
	var (
		mu     sync.Mutex
		fences []int64
		wg     sync.WaitGroup
	)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				l, err := fix.Obtain(ctx, waiters, "lock:{b}", time.Second, fix.WithFencing(), fix.WithMaxWait(5*time.Second))
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				fences = append(fences, l.Fence())
				mu.Unlock()
				time.Sleep(time.Millisecond)
				if err := l.Release(ctx); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	for i := 1; i < len(fences); i++ {
		if fences[i] <= fences[i-1] {
			t.Fatalf("fences out of order: %v", fences)
		}
	}

	eventually(t, time.Second, "no shard subscription left", func() bool {
		for _, key := range keys {
			if shardSubscribers(t, admin, key+":wake") != 0 {
				return false
			}
		}
		return true
	})
}

// shardSubscribers counts the subscribers of a shard channel on every
// master (only the slot's master should have any).
func shardSubscribers(t *testing.T, admin *redis.ClusterClient, channel string) int64 {
	t.Helper()
	var mu sync.Mutex
	var total int64
	err := admin.ForEachMaster(context.Background(), func(ctx context.Context, c *redis.Client) error {
		n, err := c.PubSubShardNumSub(ctx, channel).Result()
		mu.Lock()
		total += n[channel]
		mu.Unlock()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return total
}
