package behaviour_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
)

func TestReleaseAfterExpiryKeepsNextOwnersLock(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		a, err := fix.Obtain(ctx, s.client, "feed", 100*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		b, err := fix.Obtain(ctx, s.client, "feed", 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Release(ctx); !errors.Is(err, fix.ErrNotHeld) {
			t.Fatalf("stale release: err = %v, want ErrNotHeld", err)
		}
		if got := s.admin.Get(ctx, "feed").Val(); got != b.Token() {
			t.Fatalf("value after stale release = %q, want B's token", got)
		}
		if err := fix.Release(ctx, s.client, "feed", a.Token()); !errors.Is(err, fix.ErrNotHeld) {
			t.Fatalf("stale function release: err = %v, want ErrNotHeld", err)
		}
		if err := b.Release(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

func TestReleaseTwiceSendsNothingSecondTime(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		l, err := fix.Obtain(ctx, s.client, "feed", 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
		before := s.sent.Load()
		if err := l.Release(ctx); !errors.Is(err, fix.ErrNotHeld) {
			t.Fatalf("second release: err = %v, want ErrNotHeld", err)
		}
		if err := l.Refresh(ctx, time.Second); !errors.Is(err, fix.ErrNotHeld) {
			t.Fatalf("refresh after release: err = %v, want ErrNotHeld", err)
		}
		if n := s.sent.Load() - before; n != 0 {
			t.Errorf("sent %d commands after release", n)
		}
		if !errors.Is(context.Cause(l.Context()), fix.ErrReleased) {
			t.Errorf("context cause = %v, want ErrReleased", context.Cause(l.Context()))
		}
	})
}

func TestReleaseRunsWithCancelledContext(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx, cancel := context.WithCancel(context.Background())
		l, err := fix.Obtain(ctx, s.client, "feed", 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		token := l.Token()
		cancel()
		if err := l.Release(ctx); err != nil {
			t.Fatalf("release with cancelled context: %v", err)
		}
		if n := s.admin.Exists(context.Background(), "feed").Val(); n != 0 {
			t.Errorf("key survives release")
		}
		if err := s.admin.Set(context.Background(), "feed", token, time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
		if err := fix.Release(ctx, s.client, "feed", token); err != nil {
			t.Fatalf("function release with cancelled context: %v", err)
		}
	})
}

func TestReleasePathFollowsServerSupport(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		var paths []fix.ReleasePath
		obs := &fix.Observer{Released: func(_ context.Context, _ string, p fix.ReleasePath, held bool) {
			if !held {
				t.Errorf("released lock reported not held")
			}
			paths = append(paths, p)
		}}
		want := fix.ReleaseLua
		if s.delex {
			want = fix.ReleaseDELEX
		}
		for i := range 3 {
			before := s.sent.Load()
			l, err := fix.Obtain(context.Background(), s.client, "feed", 10*time.Second, fix.WithObserver(obs))
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
			// Once support is known a cycle is two round trips: SET NX PX and
			// the release. The first cycle also dials, and may learn that
			// DELEX is missing and load the script.
			n := s.sent.Load() - before
			t.Logf("cycle %d sent %d commands", i, n)
			if i > 0 && n != 2 {
				t.Errorf("acquire+release sent %d commands, want 2", n)
			}
		}
		for _, p := range paths {
			if p != want {
				t.Errorf("release path %s, want %s", p, want)
			}
		}
	})
}

func TestRefreshExtendsOwnLeaseOnly(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		l, err := fix.Obtain(ctx, s.client, "feed", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		before := l.Until()
		if err := l.Refresh(ctx, 20*time.Second); err != nil {
			t.Fatal(err)
		}
		if pttl := s.admin.PTTL(ctx, "feed").Val(); pttl < 10*time.Second {
			t.Errorf("PTTL after refresh = %s", pttl)
		}
		if !l.Until().After(before.Add(10 * time.Second)) {
			t.Errorf("Until not moved: %s -> %s", before, l.Until())
		}
		if err := fix.Refresh(ctx, s.client, "feed", "someone-else-token", time.Hour); !errors.Is(err, fix.ErrNotHeld) {
			t.Fatalf("foreign refresh: err = %v, want ErrNotHeld", err)
		}
		if pttl := s.admin.PTTL(ctx, "feed").Val(); pttl > 21*time.Second {
			t.Errorf("foreign refresh changed PTTL to %s", pttl)
		}
		if err := fix.Refresh(ctx, s.client, "feed", l.Token(), 30*time.Second); err != nil {
			t.Fatalf("function refresh by owner: %v", err)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

func TestRefreshNeverRecreatesExpiredKey(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		l, err := fix.Obtain(ctx, s.client, "feed", 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.admin.Del(ctx, "feed").Err(); err != nil {
			t.Fatal(err)
		}
		if err := fix.Refresh(ctx, s.client, "feed", l.Token(), time.Second); !errors.Is(err, fix.ErrNotHeld) {
			t.Fatalf("function refresh of missing key: err = %v, want ErrNotHeld", err)
		}
		err = l.Refresh(ctx, time.Second)
		if !errors.Is(err, fix.ErrNotHeld) {
			t.Fatalf("refresh of missing key: err = %v, want ErrNotHeld", err)
		}
		if n := s.admin.Exists(ctx, "feed").Val(); n != 0 {
			t.Fatalf("refresh recreated the key")
		}
		if cause := context.Cause(l.Context()); !errors.Is(cause, fix.ErrLost) || !errors.Is(cause, fix.ErrNotHeld) {
			t.Errorf("context cause = %v, want ErrLost and ErrNotHeld", cause)
		}
		if err := l.Release(ctx); !errors.Is(err, fix.ErrNotHeld) {
			t.Errorf("release of lost lock: err = %v, want ErrNotHeld", err)
		}
	})
}

func TestLockContextEndsAtLeaseWithoutWatchdog(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		l, err := fix.Obtain(ctx, s.client, "feed", 200*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-l.Context().Done():
		case <-time.After(5 * time.Second):
			t.Fatal("lock context still live long after the lease")
		}
		if time.Now().Before(l.Until()) {
			t.Errorf("context ended before Until")
		}
		if cause := context.Cause(l.Context()); !errors.Is(cause, fix.ErrLost) {
			t.Errorf("cause = %v, want ErrLost", cause)
		}
		if err := l.Refresh(ctx, time.Second); !errors.Is(err, fix.ErrLost) {
			t.Errorf("refresh after local lease end: err = %v, want ErrLost", err)
		}
	})
}
