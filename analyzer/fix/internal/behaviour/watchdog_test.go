package behaviour_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"go.uber.org/goleak"
)

func TestWatchdogKeepsLockPastTTLAndStopsOnRelease(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		s.client.Ping(ctx) // dial before the leak snapshot
		defer goleak.VerifyNone(t, leakOpts()...)
		var mu sync.Mutex
		renewals := 0
		obs := &fix.Observer{Renewed: func(_ context.Context, _ string, err error) {
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				renewals++
			}
		}}
		l, err := fix.Obtain(ctx, s.client, "feed", 300*time.Millisecond, fix.WithWatchdog(time.Minute), fix.WithObserver(obs))
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(1200 * time.Millisecond)
		if l.Context().Err() != nil {
			t.Fatalf("lock lost under watchdog: %v", context.Cause(l.Context()))
		}
		if got := s.admin.Get(ctx, "feed").Val(); got != l.Token() {
			t.Fatalf("key = %q after 4 TTLs, want token", got)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if renewals < 2 {
			t.Errorf("renewals = %d", renewals)
		}
	})
}

func TestWatchdogStopsAtMaxHold(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		s.client.Ping(ctx)
		defer goleak.VerifyNone(t, leakOpts()...)
		start := time.Now()
		// A lease several renewal periods long keeps a loaded machine's
		// scheduling delays from ending the lock before its maximum hold.
		l, err := fix.Obtain(ctx, s.client, "feed", 600*time.Millisecond, fix.WithWatchdog(1500*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-l.Context().Done():
		case <-time.After(10 * time.Second):
			t.Fatal("watchdog renewed past its maximum hold")
		}
		if d := time.Since(start); d < 1450*time.Millisecond {
			t.Errorf("lock ended after %s, before the maximum hold", d)
		}
		if cause := context.Cause(l.Context()); !errors.Is(cause, fix.ErrLost) {
			t.Errorf("cause = %v, want ErrLost", cause)
		}
		_ = l.Release(ctx)
	})
}

func TestWatchdogCancelsContextWhenKeyIsTaken(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		s.client.Ping(ctx)
		defer goleak.VerifyNone(t, leakOpts()...)
		lost := make(chan error, 1)
		obs := &fix.Observer{Lost: func(_ context.Context, _ string, cause error) { lost <- cause }}
		l, err := fix.Obtain(ctx, s.client, "feed", 300*time.Millisecond, fix.WithWatchdog(time.Minute), fix.WithObserver(obs))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.admin.Set(ctx, "feed", "intruder", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-l.Context().Done():
		case <-time.After(10 * time.Second):
			t.Fatal("lock context not cancelled")
		}
		if cause := context.Cause(l.Context()); !errors.Is(cause, fix.ErrLost) || !errors.Is(cause, fix.ErrNotHeld) {
			t.Errorf("cause = %v", cause)
		}
		if err := <-lost; !errors.Is(err, fix.ErrLost) {
			t.Errorf("observer got %v", err)
		}
		if err := l.Release(ctx); !errors.Is(err, fix.ErrNotHeld) {
			t.Errorf("release: %v", err)
		}
		if got := s.admin.Get(ctx, "feed").Val(); got != "intruder" {
			t.Errorf("release removed the other owner's key")
		}
	})
}

func TestDoRunsUnderLockAndReleases(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		s.client.Ping(ctx)
		defer goleak.VerifyNone(t, leakOpts()...)
		boom := errors.New("boom")
		err := fix.Do(ctx, s.client, "feed", 300*time.Millisecond, func(ctx context.Context) error {
			if s.admin.Exists(ctx, "feed").Val() != 1 {
				t.Error("key not held inside Do")
			}
			time.Sleep(500 * time.Millisecond) // longer than the TTL: the watchdog renews
			if ctx.Err() != nil {
				t.Errorf("fn context ended: %v", context.Cause(ctx))
			}
			return boom
		})
		if !errors.Is(err, boom) || errors.Is(err, fix.ErrNotHeld) {
			t.Fatalf("err = %v, want fn's error only", err)
		}
		if s.admin.Exists(ctx, "feed").Val() != 0 {
			t.Fatal("Do left the key")
		}

		err = fix.Do(ctx, s.client, "feed", 300*time.Millisecond, func(ctx context.Context) error {
			s.admin.Set(ctx, "feed", "intruder", time.Minute)
			<-ctx.Done()
			return nil
		})
		if !errors.Is(err, fix.ErrLost) || !errors.Is(err, fix.ErrNotHeld) {
			t.Fatalf("lost lock: err = %v, want ErrLost and ErrNotHeld", err)
		}
		if s.admin.Get(ctx, "feed").Val() != "intruder" {
			t.Fatal("Do deleted another owner's key")
		}
	})
}

// leakOpts ignores the goroutines that serve miniredis connections, which
// the pool may open during a test, and the library's idle workers (kept a
// few seconds to run the next bounded command; one running a command has
// that command on top of its stack and is checked); the lock's own
// goroutines and timers are what is checked.
func leakOpts() []goleak.Option {
	return []goleak.Option{
		goleak.IgnoreCurrent(),
		goleak.IgnoreTopFunction("github.com/locklint/locklint/analyzer/fix/lock.worker"),
		goleak.IgnoreAnyFunction("github.com/alicebob/miniredis/v2/server.(*Server).servePeer"),
		goleak.IgnoreAnyFunction("github.com/alicebob/miniredis/v2/server.(*Server).servePeer.func2"),
	}
}
