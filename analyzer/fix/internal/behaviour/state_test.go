package behaviour_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/redis/go-redis/v9"
)

func TestNilLockIsSafe(t *testing.T) {
	var l *fix.Lock
	ctx := context.Background()
	if err := l.Release(ctx); !errors.Is(err, fix.ErrNotHeld) {
		t.Errorf("Release on nil: %v, want ErrNotHeld", err)
	}
	if err := l.Refresh(ctx, time.Second); !errors.Is(err, fix.ErrNotHeld) {
		t.Errorf("Refresh on nil: %v, want ErrNotHeld", err)
	}
	if l.Key() != "" || l.Token() != "" || l.Fence() != 0 || !l.Until().IsZero() {
		t.Errorf("nil lock reports an identity")
	}
	select {
	case <-l.Context().Done():
	default:
		t.Error("nil lock's Context is live")
	}
	if cause := context.Cause(l.Context()); !errors.Is(cause, fix.ErrNotHeld) {
		t.Errorf("nil lock's Context cause %v, want ErrNotHeld", cause)
	}
}

// TestRefreshSetsWatchdogTTL extends a watched lock by hand: the next
// renewal must keep the new lease, not shrink it back to the old TTL.
func TestRefreshSetsWatchdogTTL(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		l, err := fix.Obtain(ctx, s.client, "feed", 300*time.Millisecond, fix.WithWatchdog(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		defer l.Release(ctx)
		if err := l.Refresh(ctx, 5*time.Second); err != nil {
			t.Fatal(err)
		}
		// Past the renewal the watchdog had scheduled at 100 ms.
		time.Sleep(400 * time.Millisecond)
		if pttl := s.admin.PTTL(ctx, "feed").Val(); pttl < 4*time.Second {
			t.Errorf("PTTL %s after a renewal, want the 5 s set by Refresh", pttl)
		}
		if left := time.Until(l.Until()); left < 4*time.Second {
			t.Errorf("Until in %s, want about 5 s", left)
		}
	})
}

// isRelease matches the owner-checked delete: DELEX, or the release script
// (one key and one argument).
func isRelease(args []string) bool {
	return redistest.Command("DELEX")(args) || redistest.Command("EVALSHA")(args) && len(args) == 5
}

// TestFailedReleaseKeepsWatchdog fails a Release with a server error: the
// lock is held as before, so its watchdog must go on renewing.
func TestFailedReleaseKeepsWatchdog(t *testing.T) {
	eachProxiedServer(t, func(t *testing.T, s proxied) {
		c := s.client(t, nil)
		ctx := ctxT(t)
		const ttl = 300 * time.Millisecond
		l, err := fix.Obtain(ctx, c, "lock:{rel}", ttl, fix.WithWatchdog(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		f := s.proxy.Inject(&redistest.Fault{Match: isRelease, Times: 1, Answer: "-ERR injected failure"})
		defer s.proxy.Clear()
		if err := l.Release(ctx); err == nil || errors.Is(err, fix.ErrNotHeld) || f.Hits() != 1 {
			t.Fatalf("release: %v (fault hits %d), want the injected error", err, f.Hits())
		}
		time.Sleep(3 * ttl)
		if err := l.Context().Err(); err != nil {
			t.Fatalf("lock lost after a failed release: %v", context.Cause(l.Context()))
		}
		if got := s.admin.Get(ctx, "lock:{rel}").Val(); got != l.Token() {
			t.Fatalf("key = %q three TTLs after a failed release: the watchdog stopped", got)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatalf("second release: %v", err)
		}
	})
}

// TestLeaseEndingDuringReleaseIsNoLoss delays the reply to a release that
// deleted the key past the local lease: the lock was released, not lost.
func TestLeaseEndingDuringReleaseIsNoLoss(t *testing.T) {
	eachProxiedServer(t, func(t *testing.T, s proxied) {
		c := s.client(t, nil)
		ctx := ctxT(t)
		// Learn the release path first, so the delayed reply is the delete's.
		warm, err := fix.Obtain(ctx, c, "lock:{warm}", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := warm.Release(ctx); err != nil {
			t.Fatal(err)
		}
		var lost atomic.Int64
		obs := &fix.Observer{Lost: func(context.Context, string, error) { lost.Add(1) }}
		l, err := fix.Obtain(ctx, c, "lock:{late}", 200*time.Millisecond, fix.WithObserver(obs))
		if err != nil {
			t.Fatal(err)
		}
		s.proxy.Inject(&redistest.Fault{Match: isRelease, Times: 1, Delay: 400 * time.Millisecond})
		defer s.proxy.Clear()
		if err := l.Release(ctx); err != nil {
			t.Fatalf("release: %v", err)
		}
		if n := lost.Load(); n != 0 {
			t.Errorf("observer saw %d losses for a lock that was released", n)
		}
		if cause := context.Cause(l.Context()); !errors.Is(cause, fix.ErrReleased) {
			t.Errorf("cause %v, want ErrReleased", cause)
		}
	})
}

// TestTransientErrorsRetriedWithinWait answers the acquire as a node in a
// failover does, more times than go-redis retries on its own (4 tries by
// default): a waiting Obtain gets past it, a single attempt reports it.
func TestTransientErrorsRetriedWithinWait(t *testing.T) {
	for _, answer := range []string{
		"-LOADING Redis is loading the dataset in memory",
		"-TRYAGAIN Multiple keys request during rehashing of slot",
		"-READONLY You can't write against a read only replica.",
		"-CLUSTERDOWN The cluster is down",
	} {
		word := strings.Fields(answer[1:])[0]
		t.Run(word, func(t *testing.T) {
			eachProxiedServer(t, func(t *testing.T, s proxied) {
				c := s.client(t, nil)
				ctx := ctxT(t)
				f := s.proxy.Inject(&redistest.Fault{Match: isAcquire, Times: 6, Answer: answer})
				defer s.proxy.Clear()
				_, err := fix.Obtain(context.Background(), c, "lock:{once}", time.Second)
				if err == nil || !strings.Contains(err.Error(), word) {
					t.Fatalf("single attempt: %v, want the %s error", err, word)
				}
				f.Times = f.Hits() + 6
				l, err := fix.Obtain(ctx, c, "lock:{wait}", time.Second, fix.WithMaxWait(3*time.Second))
				if err != nil {
					t.Fatalf("waiting Obtain through %d %s answers: %v", 6, word, err)
				}
				if f.Hits() != f.Times {
					t.Errorf("fault answered %d of %d", f.Hits(), f.Times)
				}
				if err := l.Release(ctx); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

func TestMaxHoldShorterThanTTLIsRejected(t *testing.T) {
	srv := redistest.Start(t)
	c := srv.Client(t, nil)
	var sent atomic.Int64
	c.AddHook(countHook{&sent})
	_, err := fix.Obtain(ctxT(t), c, "lock:{hold}", time.Second, fix.WithWatchdog(100*time.Millisecond))
	if !errors.Is(err, fix.ErrInvalidOption) || sent.Load() != 0 {
		t.Errorf("err = %v after %d commands, want ErrInvalidOption before any", err, sent.Load())
	}
}

func TestDefaultBackoffCannotBeChanged(t *testing.T) {
	b := fix.DefaultBackoff()
	b.Base, b.Cap = 0, 0
	if d := fix.DefaultBackoff(); d.Base <= 0 || d.Cap < d.Base {
		t.Errorf("DefaultBackoff() = %+v after changing a copy", d)
	}
}

// wrapped is a client type that is not comparable (it has a slice), as
// instrumentation wrappers often are.
type wrapped struct {
	*redis.Client
	tags []string
}

// TestFeatureCacheServesWrapperClients: support for DELEX is learnt per
// server, so a non-comparable wrapper on a server without DELEX pays the
// rejected DELEX once, not on every release.
func TestFeatureCacheServesWrapperClients(t *testing.T) {
	srv := redistest.Start(t)
	c := srv.Client(t, nil)
	var sent atomic.Int64
	c.AddHook(countHook{&sent})
	w := wrapped{c, []string{"svc"}}
	ctx := ctxT(t)
	for i := range 3 {
		before := sent.Load()
		l, err := fix.Obtain(context.Background(), w, "lock:{wrap}", 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if n := sent.Load() - before; i > 0 && n != 2 {
			t.Errorf("cycle %d sent %d commands, want 2 (SET NX GET and the release script)", i, n)
		}
	}
}

// TestKeepAliveHasNoMaximumHold holds a lock with WithKeepAlive for many
// leases, then has another owner take the key: renewal stops with ErrLost.
func TestKeepAliveHasNoMaximumHold(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		const ttl = 300 * time.Millisecond
		l, err := fix.Obtain(ctx, s.client, "feed", ttl, fix.WithKeepAlive())
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(6 * ttl)
		if err := l.Context().Err(); err != nil {
			t.Fatalf("kept-alive lock ended: %v", context.Cause(l.Context()))
		}
		if err := s.admin.Set(ctx, "feed", "intruder", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-l.Context().Done():
		case <-time.After(2 * ttl):
			t.Fatal("kept-alive lock did not notice the loss")
		}
		if cause := context.Cause(l.Context()); !errors.Is(cause, fix.ErrLost) || !errors.Is(cause, fix.ErrNotHeld) {
			t.Errorf("cause %v, want ErrLost and ErrNotHeld", cause)
		}
		if err := l.Release(ctx); !errors.Is(err, fix.ErrNotHeld) {
			t.Errorf("release after loss: %v", err)
		}

		// Do with WithKeepAlive replaces its default maximum hold.
		err = fix.Do(ctx, s.client, "feed2", ttl, func(ctx context.Context) error {
			time.Sleep(3 * ttl)
			return ctx.Err()
		}, fix.WithKeepAlive())
		if err != nil {
			t.Errorf("Do with WithKeepAlive: %v", err)
		}
	})
}
