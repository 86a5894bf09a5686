package behaviour_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/redis/go-redis/v9"
)

// TestRingIsRejectedByObtain: a Ring remaps keys when a shard flaps, so
// Obtain refuses it before sending anything.
func TestRingIsRejectedByObtain(t *testing.T) {
	m := redistest.Miniredis(t)
	ring := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"mini": m.Addr()}})
	defer ring.Close()
	var sent atomic.Int64
	ring.AddHook(countHook{&sent})
	for _, opts := range [][]fix.Option{nil, {fix.WithFencing()}, {fix.WithMaxWait(time.Second)}} {
		if _, err := fix.Obtain(ctxT(t), ring, "lock:{r}", time.Second, opts...); !errors.Is(err, fix.ErrRing) {
			t.Errorf("Obtain on a Ring: %v, want ErrRing", err)
		}
	}
	if err := fix.Do(ctxT(t), ring, "lock:{r}", time.Second, func(context.Context) error { return nil }); !errors.Is(err, fix.ErrRing) {
		t.Errorf("Do on a Ring: %v, want ErrRing", err)
	}
	if n := sent.Load(); n != 0 {
		t.Errorf("sent %d commands", n)
	}
}

// TestRingFunctionFormsLearnSupportPerShard pins the per-node support
// cache through the function forms, which accept a Ring: one shard has
// DELEX and SET IFEQ (miniredis), the other not (redis-server 7), and once
// each shard's support is known every call is one command.
func TestRingFunctionFormsLearnSupportPerShard(t *testing.T) {
	m := redistest.Miniredis(t)
	srv := redistest.Start(t)
	ring := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"mini": m.Addr(), "real": srv.Addr}})
	defer ring.Close()
	var sent atomic.Int64
	ring.AddHook(countHook{&sent})
	ctx := ctxT(t)
	shards := map[string]int{}
	for round := range 2 {
		before := sent.Load()
		for i := range 20 {
			key := fmt.Sprintf("lock:%d", i)
			token := fmt.Sprintf("token-%d-%d", round, i)
			if err := ring.Set(ctx, key, token, 10*time.Second).Err(); err != nil {
				t.Fatal(err)
			}
			if err := fix.Refresh(ctx, ring, key, token, 20*time.Second); err != nil {
				t.Fatal(err)
			}
			if err := fix.Release(ctx, ring, key, token); err != nil {
				t.Fatal(err)
			}
			if err := fix.Release(ctx, ring, key, token); !errors.Is(err, fix.ErrNotHeld) {
				t.Fatalf("second release: %v", err)
			}
			if round == 0 {
				shard, err := ring.GetShardClientForKey(key)
				if err != nil {
					t.Fatal(err)
				}
				shards[shard.Options().Addr]++
			}
		}
		if n := sent.Load() - before; round == 1 && n != 20*4 {
			t.Errorf("second round sent %d commands, want %d (SET, refresh, two releases per key)", n, 20*4)
		}
	}
	if len(shards) != 2 {
		t.Errorf("keys did not spread over both shards: %v", shards)
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
