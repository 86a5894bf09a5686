package behaviour_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
)

type ctxKey struct{}

// TestObserverHooksGetTheCallsContext: each hook sees the context of the
// call it reports on, and the lock's later events (renewals, a loss) see
// Obtain's values without its cancellation.
func TestObserverHooksGetTheCallsContext(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		var mu sync.Mutex
		seen := map[string][]any{}
		record := func(event string, ctx context.Context) {
			mu.Lock()
			defer mu.Unlock()
			seen[event] = append(seen[event], ctx.Value(ctxKey{}))
			if ctx.Err() != nil {
				seen[event+" cancelled"] = append(seen[event+" cancelled"], true)
			}
		}
		obs := &fix.Observer{
			Acquired:  func(ctx context.Context, _ string, _ time.Duration, _ int, _ error) { record("acquired", ctx) },
			Contended: func(ctx context.Context, _ string, _ int) { record("contended", ctx) },
			Renewed:   func(ctx context.Context, _ string, _ error) { record("renewed", ctx) },
			Released:  func(ctx context.Context, _ string, _ fix.ReleasePath, _ bool) { record("released", ctx) },
		}
		obtainCtx, cancel := context.WithCancel(context.WithValue(ctxT(t), ctxKey{}, "obtain"))
		l, err := fix.Obtain(obtainCtx, s.client, "lock:{obs}", 300*time.Millisecond, fix.WithObserver(obs), fix.WithWatchdog(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		cancel() // the request that took the lock is over; the watchdog goes on
		other := context.WithValue(ctxT(t), ctxKey{}, "second")
		if _, err := fix.Obtain(other, s.client, "lock:{obs}", time.Second, fix.WithObserver(obs)); !errors.Is(err, fix.ErrNotObtained) {
			t.Fatalf("second Obtain: %v, want ErrNotObtained", err)
		}
		time.Sleep(250 * time.Millisecond) // at least one renewal (every ttl/3)
		if err := l.Release(context.WithValue(ctxT(t), ctxKey{}, "release")); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		for event, want := range map[string]any{"acquired": "obtain", "contended": "second", "renewed": "obtain", "released": "release"} {
			if len(seen[event]) == 0 || seen[event][0] != want {
				t.Errorf("%s saw %v, want the value %q first", event, seen[event], want)
			}
		}
		if n := len(seen["renewed cancelled"]); n > 0 {
			t.Errorf("%d renewals saw a cancelled context", n)
		}
	})
}

// TestPanickingObserverBreaksNothing: hooks that panic change no outcome.
func TestPanickingObserverBreaksNothing(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		boom := func() { panic("observer bug") }
		obs := &fix.Observer{
			Acquired:  func(context.Context, string, time.Duration, int, error) { boom() },
			Contended: func(context.Context, string, int) { boom() },
			Renewed:   func(context.Context, string, error) { boom() },
			Lost:      func(context.Context, string, error) { boom() },
			Released:  func(context.Context, string, fix.ReleasePath, bool) { boom() },
		}
		ctx := ctxT(t)
		l, err := fix.Obtain(ctx, s.client, "lock:{panic}", 300*time.Millisecond, fix.WithObserver(obs), fix.WithWatchdog(time.Minute))
		if err != nil {
			t.Fatalf("Obtain with a panicking observer: %v", err)
		}
		if _, err := fix.Obtain(ctx, s.client, "lock:{panic}", time.Second, fix.WithObserver(obs)); !errors.Is(err, fix.ErrNotObtained) {
			t.Fatalf("contended Obtain: %v, want ErrNotObtained", err)
		}
		time.Sleep(500 * time.Millisecond) // past the first TTL: only renewals keep it
		if got := s.admin.Get(ctx, "lock:{panic}").Val(); got != l.Token() {
			t.Fatalf("after renewals with a panicking hook the key holds %q, want the token", got)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatalf("Release: %v", err)
		}
		if n := s.admin.Exists(ctx, "lock:{panic}").Val(); n != 0 {
			t.Errorf("key survives release")
		}
	})
}

// TestSlogObserver logs a scripted sequence and checks the records.
func TestSlogObserver(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		var buf bytes.Buffer
		var mu sync.Mutex
		logger := slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
		obs := fix.SlogObserver(logger)
		ctx := ctxT(t)
		l, err := fix.Obtain(ctx, s.client, "lock:{slog}", 200*time.Millisecond, fix.WithObserver(obs))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fix.Obtain(ctx, s.client, "lock:{slog}", time.Second, fix.WithObserver(obs)); !errors.Is(err, fix.ErrNotObtained) {
			t.Fatalf("contended Obtain: %v", err)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
		// A lease that runs out with nobody renewing it is lost.
		lost, err := fix.Obtain(ctx, s.client, "lock:{slog2}", 100*time.Millisecond, fix.WithObserver(obs))
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-lost.Context().Done():
		case <-time.After(2 * time.Second):
			t.Fatal("the lease ran out and the lock's Context did not end")
		}
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		out := buf.String()
		mu.Unlock()
		for _, want := range []string{
			`level=DEBUG msg="lock acquired" lock=lock:{slog}`,
			`level=DEBUG msg="lock contended" lock=lock:{slog} attempt=1`,
			`level=INFO msg="lock not obtained" lock=lock:{slog}`,
			`level=DEBUG msg="lock released" lock=lock:{slog} path=`,
			`level=ERROR msg="lock lost" lock=lock:{slog2}`,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("log lacks %q:\n%s", want, out)
			}
		}
	})
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
