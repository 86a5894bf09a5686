package behaviour_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
)

func TestFenceIncreasesWithEachAcquisition(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		var last int64
		for range 5 {
			l, err := fix.Obtain(ctx, s.client, "lock:{sku42}", 10*time.Second, fix.WithFencing())
			if err != nil {
				t.Fatal(err)
			}
			if l.Fence() <= last {
				t.Fatalf("fence %d after %d", l.Fence(), last)
			}
			last = l.Fence()
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if got, _ := s.admin.Get(ctx, "lock:{sku42}:fence").Int64(); got != last {
			t.Errorf("fence counter = %d, want %d", got, last)
		}
		// A counter lives a day from its start (see fencelife_test.go).
		if ttl := s.admin.PTTL(ctx, "lock:{sku42}:fence").Val(); ttl <= 0 || ttl > 24*time.Hour {
			t.Errorf("fence counter TTL %s, want a day at most", ttl)
		}
	})
}

func TestFenceNotIssuedWhenLockIsHeld(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		a, err := fix.Obtain(ctx, s.client, "feed", 10*time.Second, fix.WithFencing())
		if err != nil {
			t.Fatal(err)
		}
		defer a.Release(ctx)
		_, err = fix.Obtain(ctx, s.client, "feed", time.Second, fix.WithFencing(), fix.WithMaxWait(100*time.Millisecond))
		if !errors.Is(err, fix.ErrNotObtained) {
			t.Fatalf("err = %v, want ErrNotObtained", err)
		}
		// A key without a hash tag gets its counter wrapped into one.
		if got, _ := s.admin.Get(ctx, "{feed}:fence").Int64(); got != a.Fence() {
			t.Errorf("counter = %d after failed attempts, want %d", got, a.Fence())
		}
	})
}

func TestExplicitFenceKeyInSameSlot(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		l, err := fix.Obtain(ctx, s.client, "lock:{sku42}", time.Second, fix.WithFenceKey("fences:{sku42}"))
		if err != nil {
			t.Fatal(err)
		}
		defer l.Release(ctx)
		if got, _ := s.admin.Get(ctx, "fences:{sku42}").Int64(); l.Fence() <= 1 || got != l.Fence() {
			t.Errorf("fence = %d, counter %d", l.Fence(), got)
		}
	})
}

func TestFencedResourceRejectsStaleWrites(t *testing.T) {
	var r fix.FencedResource[string]
	if err := r.Write(2, "b"); err != nil {
		t.Fatal(err)
	}
	if err := r.Write(1, "a"); !errors.Is(err, fix.ErrStaleFence) {
		t.Fatalf("older fence: err = %v", err)
	}
	if err := r.Write(2, "b2"); !errors.Is(err, fix.ErrStaleFence) {
		t.Fatalf("equal fence: err = %v", err)
	}
	if f, v := r.Load(); f != 2 || v != "b" {
		t.Fatalf("Load = %d, %q", f, v)
	}
}

// TestStaleWriterIsRejectedByFence is the examples/stalewriter lab: A
// pauses past its 300 ms lease, B takes over with a later fence, and only
// the fence keeps A's late write out.
func TestStaleWriterIsRejectedByFence(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		const key = "lab:lock:{sku42}"
		var resource fix.FencedResource[string]
		a, err := fix.Obtain(ctx, s.client, key, 300*time.Millisecond, fix.WithFencing())
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(450 * time.Millisecond)
		if !errors.Is(context.Cause(a.Context()), fix.ErrLost) {
			t.Errorf("A's context cause = %v, want ErrLost", context.Cause(a.Context()))
		}
		b, err := fix.Obtain(ctx, s.client, key, 5*time.Second, fix.WithFencing())
		if err != nil {
			t.Fatal(err)
		}
		if b.Fence() <= a.Fence() {
			t.Fatalf("fences A=%d B=%d", a.Fence(), b.Fence())
		}
		if err := resource.Write(b.Fence(), "worker-B"); err != nil {
			t.Fatalf("B's write: %v", err)
		}
		if err := resource.Write(a.Fence(), "worker-A"); !errors.Is(err, fix.ErrStaleFence) {
			t.Fatalf("A's stale write: %v", err)
		}
		if err := a.Release(ctx); !errors.Is(err, fix.ErrNotHeld) {
			t.Fatalf("A's release after expiry: %v", err)
		}
		if got := s.admin.Get(ctx, key).Val(); got != b.Token() {
			t.Fatalf("B no longer owns the lock: %q", got)
		}
		if err := b.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if f, v := resource.Load(); f != b.Fence() || v != "worker-B" {
			t.Errorf("resource = %q@%d", v, f)
		}
	})
}
