package fix_test

import (
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
		if ttl := s.admin.PTTL(ctx, "lock:{sku42}:fence").Val(); ttl != -1 {
			t.Errorf("fence counter has a TTL (%s); it must never expire", ttl)
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
		if l.Fence() != 1 || s.admin.Get(ctx, "fences:{sku42}").Val() != "1" {
			t.Errorf("fence = %d, counter %q", l.Fence(), s.admin.Get(ctx, "fences:{sku42}").Val())
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
