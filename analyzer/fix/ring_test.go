package fix_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/internal/redistest"
	"github.com/redis/go-redis/v9"
)

// TestRingMixesReleasePathsPerShard pins the per-node support cache: one
// shard has DELEX (miniredis), the other does not (redis-server 7).
func TestRingMixesReleasePathsPerShard(t *testing.T) {
	m := redistest.Miniredis(t)
	srv := redistest.Start(t)
	ring := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"mini": m.Addr(), "real": srv.Addr}})
	defer ring.Close()
	ctx := ctxT(t)

	paths := map[string]fix.ReleasePath{}
	obs := &fix.Observer{Released: func(key string, p fix.ReleasePath, _ bool) { paths[key] = p }}
	for i := range 20 {
		key := fmt.Sprintf("lock:%d", i)
		for range 2 {
			l, err := fix.Obtain(ctx, ring, key, 10*time.Second, fix.WithFencing(), fix.WithObserver(obs))
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Refresh(ctx, 20*time.Second); err != nil {
				t.Fatal(err)
			}
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
			if err := fix.Release(ctx, ring, key, l.Token()); !errors.Is(err, fix.ErrNotHeld) {
				t.Fatalf("second release: %v", err)
			}
		}
	}
	count := map[fix.ReleasePath]int{}
	for key, p := range paths {
		shard, err := ring.GetShardClientForKey(key)
		if err != nil {
			t.Fatal(err)
		}
		want := fix.ReleaseLua
		if shard.Options().Addr == m.Addr() {
			want = fix.ReleaseDELEX
		}
		if p != want {
			t.Errorf("%s on %s released by %s, want %s", key, shard.Options().Addr, p, want)
		}
		count[p]++
	}
	if count[fix.ReleaseDELEX] == 0 || count[fix.ReleaseLua] == 0 {
		t.Errorf("keys did not spread over both shards: %v", count)
	}
}

func TestTypedNilClientIsAnInputError(t *testing.T) {
	var c *redis.Client
	if _, err := fix.Obtain(ctxT(t), c, "k", time.Second); !errors.Is(err, fix.ErrNilClient) {
		t.Errorf("Obtain: %v", err)
	}
	if err := fix.Release(ctxT(t), c, "k", "t"); !errors.Is(err, fix.ErrNilClient) {
		t.Errorf("Release: %v", err)
	}
	if err := fix.Refresh(ctxT(t), c, "k", "t", time.Second); !errors.Is(err, fix.ErrNilClient) {
		t.Errorf("Refresh: %v", err)
	}
}
