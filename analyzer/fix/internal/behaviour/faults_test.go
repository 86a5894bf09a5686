package behaviour_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/redis/go-redis/v9"
)

// storeWrite is the downstream fence check done inside Redis, the way a
// store without the library would do it: accept only a fence greater than
// the stored one, atomically with the write.
var storeWrite = redis.NewScript(`
local last = tonumber(redis.call("HGET", KEYS[1], "fence") or "0")
if tonumber(ARGV[1]) <= last then return 0 end
redis.call("HSET", KEYS[1], "fence", ARGV[1], "by", ARGV[2])
return 1`)

// TestStaleWritersSeparateClientsAgainstRealServer complements the
// shared-client stale-writer test: every worker has its own client (its own
// pool, as separate processes would), rounds are fixed rather than timed,
// and each write goes both to an in-memory FencedResource and to a
// fence-checked record in the same redis-server. Both must take exactly the
// same writes, in strictly increasing fence order.
func TestStaleWritersSeparateClientsAgainstRealServer(t *testing.T) {
	srv := redistest.Start(t)
	admin := srv.Client(t, nil)
	const (
		workers = 32
		rounds  = 4
		ttl     = 30 * time.Millisecond
		key     = "lock:{ledger}"
		record  = "{ledger}:record"
	)
	ctx := ctxT(t)
	var (
		mu                  sync.Mutex
		resource            fix.FencedResource[int]
		accepted            []int64
		attempted, rejected int
		obtainRetries       atomic.Int64
	)
	var wg sync.WaitGroup
	for w := range workers {
		c := srv.Client(t, nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				var l *fix.Lock
				for {
					var err error
					l, err = fix.Obtain(ctx, c, key, ttl, fix.WithFencing(), fix.WithMaxWait(2*time.Second))
					if err == nil {
						break
					}
					if !errors.Is(err, fix.ErrNotObtained) || ctx.Err() != nil {
						t.Errorf("worker %d: obtain: %v", w, err)
						return
					}
					obtainRetries.Add(1)
				}
				// Pause up to twice the lease and then write without looking
				// at l.Context(): the writer does not know it may be stale.
				time.Sleep(time.Duration(rand.Int64N(int64(2 * ttl))))
				mu.Lock()
				attempted++
				memErr := resource.Write(l.Fence(), w)
				n, err := storeWrite.Run(ctx, admin, []string{record}, l.Fence(), w).Int64()
				if err != nil {
					t.Errorf("store write: %v", err)
				}
				switch {
				case memErr == nil && n == 1:
					if k := len(accepted); k > 0 && l.Fence() <= accepted[k-1] {
						t.Errorf("accepted fence %d after %d", l.Fence(), accepted[k-1])
					}
					accepted = append(accepted, l.Fence())
				case errors.Is(memErr, fix.ErrStaleFence) && n == 0:
					rejected++
				default:
					t.Errorf("fence %d: in-memory %v, redis record accepted=%d: the two checks disagree", l.Fence(), memErr, n)
				}
				mu.Unlock()
				if err := l.Release(ctx); err != nil && !errors.Is(err, fix.ErrNotHeld) {
					t.Errorf("worker %d: release: %v", w, err)
				}
			}
		}()
	}
	wg.Wait()
	if attempted != workers*rounds || len(accepted)+rejected != attempted {
		t.Fatalf("attempted %d, accepted %d, rejected %d; want %d attempts", attempted, len(accepted), rejected, workers*rounds)
	}
	if rejected == 0 {
		t.Errorf("no write was stale: the pauses did not outlast a lease")
	}
	last, _ := resource.Load()
	if got, _ := admin.HGet(ctx, record, "fence").Int64(); got != last {
		t.Errorf("redis record fence %d, in-memory %d", got, last)
	}
	t.Logf("N=%d workers x M=%d rounds: %d writes attempted, %d accepted, %d stale rejected; %d obtain waits ran out and were retried",
		workers, rounds, attempted, len(accepted), rejected, obtainRetries.Load())
}

// crashClient keeps go-redis' own retries short so that the measured times
// are the library's bounds, not the client's retry schedule.
func crashClient(t *testing.T, addr string) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: 200 * time.Millisecond, MaxRetries: 1})
	t.Cleanup(func() { c.Close() })
	return c
}

func isTransport(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || strings.Contains(err.Error(), "EOF")
}

// TestServerCrashWithWatchdog kills redis-server with SIGKILL under a lock
// renewed by the watchdog, and restarts it on the same port, without and
// with AOF (appendfsync always).
func TestServerCrashWithWatchdog(t *testing.T) {
	const (
		ttl      = 600 * time.Millisecond
		deadline = 300 * time.Millisecond
		slack    = 250 * time.Millisecond
		key      = "lock:{crash}"
	)
	for _, aof := range []bool{false, true} {
		name := "no-persistence"
		if aof {
			name = "aof-always"
		}
		t.Run(name, func(t *testing.T) {
			srv := redistest.StartRestartable(t, aof)
			c := crashClient(t, srv.Addr)
			ctx := ctxT(t)
			l, err := fix.Obtain(ctx, c, key, ttl, fix.WithWatchdog(time.Minute), fix.WithReleaseTimeout(deadline))
			if err != nil {
				t.Fatal(err)
			}
			// Let a renewal or two happen so the watchdog is in its loop.
			time.Sleep(ttl / 2)

			killed := time.Now()
			srv.Kill()

			srv.Restart()
			down := time.Since(killed)
			survived := c.Get(ctx, key).Val() == l.Token()
			t.Logf("server down %s; lock key survived the restart: %v", down.Round(time.Millisecond), survived)

			if !aof {
				if survived {
					t.Fatal("without persistence the lock key came back")
				}
				// The next renewal finds the key gone.
				select {
				case <-l.Context().Done():
				case <-time.After(ttl + slack):
					t.Fatal("watchdog did not report the loss")
				}
				cause := context.Cause(l.Context())
				if !errors.Is(cause, fix.ErrLost) || !errors.Is(cause, fix.ErrNotHeld) {
					t.Errorf("cause = %v, want ErrLost wrapping ErrNotHeld", cause)
				}
				t.Logf("loss reported %s after the kill: %v", time.Since(killed).Round(time.Millisecond), cause)
				if err := l.Release(ctx); !errors.Is(err, fix.ErrNotHeld) {
					t.Errorf("release after loss: %v, want ErrNotHeld", err)
				}
			} else {
				if !survived {
					t.Fatalf("with appendfsync always the lock key was lost (down %s, lease %s)", down, ttl)
				}
				// The watchdog carries on: the lock outlives several leases.
				time.Sleep(2 * ttl)
				if err := l.Context().Err(); err != nil {
					t.Fatalf("lock lost after the restart: %v", context.Cause(l.Context()))
				}
				if err := l.Release(ctx); err != nil {
					t.Fatalf("release after restart: %v", err)
				}
			}
			l2, err := fix.Obtain(ctx, c, key, ttl, fix.WithMaxWait(time.Second))
			if err != nil {
				t.Fatalf("obtain after restart: %v", err)
			}
			if err := l2.Release(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestServerDownPastLeaseEndsContext keeps the server down longer than the
// lease: renewals fail with transport errors and the local lease runs out,
// so the context ends with ErrLost (not ErrNotHeld: no server said so) no
// later than the lease.
func TestServerDownPastLeaseEndsContext(t *testing.T) {
	const ttl = 300 * time.Millisecond
	srv := redistest.StartRestartable(t, false)
	c := crashClient(t, srv.Addr)
	ctx := ctxT(t)
	l, err := fix.Obtain(ctx, c, "lock:{down}", ttl, fix.WithWatchdog(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(ttl / 2)
	srv.Kill()
	killed := time.Now()
	until := l.Until()
	const (
		deadline = 100 * time.Millisecond
		slack    = 250 * time.Millisecond
	)
	select {
	case <-l.Context().Done():
	case <-time.After(ttl + time.Second):
		t.Fatal("context still live a second past the lease")
	}
	ended := time.Now()
	cause := context.Cause(l.Context())
	if !errors.Is(cause, fix.ErrLost) || errors.Is(cause, fix.ErrNotHeld) {
		t.Errorf("cause = %v, want ErrLost from the lease running out", cause)
	}
	if late := ended.Sub(until); late > 50*time.Millisecond {
		t.Errorf("context ended %s after the local lease", late)
	}
	t.Logf("killed %s before the lease end; context ended %s after the kill (%s after Until): %v",
		until.Sub(killed).Round(time.Millisecond), ended.Sub(killed).Round(time.Millisecond), ended.Sub(until).Round(time.Millisecond), cause)
	// Every call fails with the transport error, within its bound.
	timed := func(what string, bound time.Duration, call func(context.Context) error) {
		cctx, cancel := context.WithTimeout(ctx, deadline)
		defer cancel()
		start := time.Now()
		err := call(cctx)
		took := time.Since(start)
		if err == nil || !isTransport(err) && !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s while down: err = %v, want a transport error", what, err)
		}
		if took > bound+slack {
			t.Errorf("%s while down took %s, bound %s", what, took, bound)
		}
		t.Logf("%s while down: %s, %v", what, took.Round(time.Millisecond), err)
	}
	// Obtain's failed attempt is followed by a best-effort delete of its own
	// token (the SET may have run with its reply lost); it runs in the
	// background, so Obtain still returns by its deadline.
	timed("Obtain", deadline, func(ctx context.Context) error {
		_, err := fix.Obtain(ctx, c, "lock:{other}", ttl, fix.WithMaxWait(deadline))
		return err
	})
	timed("Refresh", deadline, func(ctx context.Context) error { return fix.Refresh(ctx, c, "lock:{down}", l.Token(), ttl) })
	timed("Lock.Release", fix.DefaultReleaseTimeout, l.Release)
	timed("Release", fix.DefaultReleaseTimeout, func(ctx context.Context) error { return fix.Release(ctx, c, "lock:{down}", l.Token()) })

	srv.Restart()
	l2, err := fix.Obtain(ctx, c, "lock:{down}", ttl)
	if err != nil {
		t.Fatalf("obtain after restart: %v", err)
	}
	_ = l2.Release(ctx)
}

// TestStalledNetworkBoundedByDeadlines puts a proxy that stops forwarding
// between client and server. A client with ContextTimeoutEnabled must get
// every call back within its context deadline (Release: its release timeout,
// since it is detached from cancellation) plus a small slack.
func TestStalledNetworkBoundedByDeadlines(t *testing.T) {
	const (
		deadline = 300 * time.Millisecond
		slack    = 250 * time.Millisecond
	)
	srv := redistest.Start(t)
	proxy := redistest.StartProxy(t, srv.Addr)
	c := redis.NewClient(&redis.Options{Addr: proxy.Addr, ContextTimeoutEnabled: true, MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	ctx := ctxT(t)
	l, err := fix.Obtain(ctx, c, "lock:{stall}", 10*time.Second, fix.WithReleaseTimeout(deadline))
	if err != nil {
		t.Fatal(err)
	}
	proxy.Stall()
	var worst time.Duration
	timed := func(what string, call func() error, bound time.Duration) {
		start := time.Now()
		err := call()
		took := time.Since(start)
		if err == nil {
			t.Errorf("%s through a stalled network succeeded", what)
		}
		if took > bound+slack {
			t.Errorf("%s took %s, bound %s + %s", what, took, bound, slack)
		}
		worst = max(worst, took-bound)
		t.Logf("%s: %s (slack %s): %v", what, took.Round(time.Millisecond), (took - bound).Round(time.Millisecond), err)
	}
	withDeadline := func(f func(context.Context) error) func() error {
		return func() error {
			cctx, cancel := context.WithTimeout(ctx, deadline)
			defer cancel()
			return f(cctx)
		}
	}
	// Obtain's best-effort delete after a failed attempt runs in the
	// background: Obtain itself returns by its deadline.
	timed("Obtain", withDeadline(func(ctx context.Context) error {
		_, err := fix.Obtain(ctx, c, "lock:{stall2}", time.Second)
		return err
	}), deadline)
	timed("Lock.Refresh", withDeadline(func(ctx context.Context) error { return l.Refresh(ctx, 10*time.Second) }), deadline)
	// A request's context is often cancelled without having a deadline;
	// go-redis sets socket deadlines only from a deadline, so the library
	// must stop waiting at the cancellation itself.
	cancelledLater := func(f func(context.Context) error) func() error {
		return func() error {
			cctx, cancel := context.WithCancel(context.Background())
			defer time.AfterFunc(deadline, cancel).Stop()
			return f(cctx)
		}
	}
	timed("Obtain (cancelled, no deadline)", cancelledLater(func(ctx context.Context) error {
		_, err := fix.Obtain(ctx, c, "lock:{stall3}", time.Second)
		return err
	}), deadline)
	timed("Lock.Refresh (cancelled, no deadline)", cancelledLater(func(ctx context.Context) error { return l.Refresh(ctx, 10*time.Second) }), deadline)
	// Release ignores the cancellation of its context, so give it one that
	// is already cancelled: only the release timeout may bound it.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	timed("Lock.Release (cancelled ctx)", func() error { return l.Release(cancelled) }, deadline)
	proxy.Resume()
	t.Logf("worst slack past the deadline: %s", worst.Round(time.Millisecond))
}

// TestBadInputOnLockAndOptionsSendsNothing covers the inputs the shared
// bad-input test does not: option errors, and a held Lock's own methods.
func TestBadInputOnLockAndOptionsSendsNothing(t *testing.T) {
	srv := redistest.Start(t)
	c := srv.Client(t, nil)
	var sent atomic.Int64
	c.AddHook(countHook{&sent})
	ctx := ctxT(t)
	l, err := fix.Obtain(ctx, c, "lock:{bad}", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(ctx)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	cases := []struct {
		name string
		run  func() error
		want error
	}{
		{"empty fence key", func() error {
			_, err := fix.Obtain(ctx, c, "lock:{x}", time.Second, fix.WithFenceKey(""))
			return err
		}, fix.ErrInvalidKey},
		{"zero max wait", func() error {
			_, err := fix.Obtain(ctx, c, "lock:{x}", time.Second, fix.WithMaxWait(0))
			return err
		}, fix.ErrInvalidOption},
		{"negative release timeout", func() error {
			_, err := fix.Obtain(ctx, c, "lock:{x}", time.Second, fix.WithReleaseTimeout(-time.Second))
			return err
		}, fix.ErrInvalidOption},
		{"cross-slot fence key with waiting", func() error {
			_, err := fix.Obtain(ctx, c, "lock:{x}", time.Second, fix.WithFenceKey("{y}:fence"), fix.WithMaxWait(time.Second))
			return err
		}, fix.ErrCrossSlot},
		{"lock refresh zero ttl", func() error { return l.Refresh(ctx, 0) }, fix.ErrInvalidTTL},
		{"lock refresh cancelled", func() error { return l.Refresh(cancelled, time.Second) }, context.Canceled},
	}
	for _, tc := range cases {
		before := sent.Load()
		err := tc.run()
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
		if n := sent.Load() - before; n != 0 {
			t.Errorf("%s: sent %d commands", tc.name, n)
		}
	}
}
