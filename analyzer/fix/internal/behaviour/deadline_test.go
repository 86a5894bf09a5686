package behaviour_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"
)

// clientGiveUp is how long a go-redis client built with default options
// may keep a command whose reply does not come: its ReadTimeout, 3 s in
// go-redis v9.18 and 5 s in v9.23 (it starts no retry once the command's
// context is done), plus a margin.
const clientGiveUp = 5*time.Second + time.Second

// TestFailedAcquireLeavesNoToken loses every reply to the acquire: the
// client re-sends it three times and gives up, each copy having run. Obtain
// must remove its token before returning, and leave no goroutine behind.
func TestFailedAcquireLeavesNoToken(t *testing.T) {
	eachProxiedServer(t, func(t *testing.T, s proxied) {
		for _, fenced := range []bool{false, true} {
			name := "plain"
			var opts []fix.Option
			if fenced {
				name, opts = "fenced", []fix.Option{fix.WithFencing()}
			}
			t.Run(name, func(t *testing.T) {
				c := s.client(t, nil)
				ctx := ctxT(t)
				warm, err := fix.Obtain(ctx, c, "lock:{warm}", time.Second, opts...)
				if err != nil {
					t.Fatal(err)
				}
				if err := warm.Release(ctx); err != nil {
					t.Fatal(err)
				}
				defer goleak.VerifyNone(t, proxyLeakOpts()...)
				key := "lock:{failed/" + name + "}"
				f := s.proxy.Inject(&redistest.Fault{Match: isAcquire, Times: 100})
				defer s.proxy.Clear()
				_, err = fix.Obtain(context.Background(), c, key, time.Minute, opts...)
				if err == nil || errors.Is(err, fix.ErrNotObtained) {
					t.Fatalf("err = %v, want the transport error", err)
				}
				if !strings.Contains(err.Error(), "no token of it is left") {
					t.Errorf("err = %v, want it to say the token was removed", err)
				}
				if f.Hits() != 4 {
					t.Errorf("acquire sent %d times, want 4 (default MaxRetries 3)", f.Hits())
				}
				if n := s.admin.Exists(ctx, key).Val(); n != 0 {
					t.Errorf("the failed acquisition left its token: %q", s.admin.Get(ctx, key).Val())
				}
				t.Logf("%s %s: %v", s.name, name, err)
			})
		}
	})
}

// TestDefaultClientStalledNetworkBounds stalls the network under a client
// built with redis.NewClient(&redis.Options{Addr: ...}) and nothing else:
// go-redis ignores context deadlines for its socket I/O then, and would
// wait its ReadTimeout per read. Every bound the library documents must hold anyway:
// Obtain's deadline, Refresh's deadline, Lock.Release's release timeout,
// the function Release's DefaultReleaseTimeout and the watchdog's renewal
// bounded by Until (the lock's Context ends at the local lease). Afterwards
// the commands still in flight end within the client's own read timeout,
// and the acquire that was cut off removes its token.
func TestDefaultClientStalledNetworkBounds(t *testing.T) {
	const (
		deadline = 300 * time.Millisecond
		slack    = 100 * time.Millisecond
		ttl      = 600 * time.Millisecond
	)
	eachProxiedServer(t, func(t *testing.T, s proxied) {
		c := s.client(t, nil)
		ctx := ctxT(t)
		c.Ping(ctx)
		leaks := proxyLeakOpts()
		defer goleak.VerifyNone(t, leaks...)
		l, err := fix.Obtain(ctx, c, "lock:{stall}", 10*time.Second, fix.WithReleaseTimeout(deadline))
		if err != nil {
			t.Fatal(err)
		}
		watched, err := fix.Obtain(ctx, c, "lock:{watched}", ttl, fix.WithWatchdog(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		ended := make(chan time.Time, 1)
		context.AfterFunc(watched.Context(), func() { ended <- time.Now() })
		s.proxy.Stall()
		stalled := time.Now()
		var worst time.Duration
		timed := func(what string, bound time.Duration, call func() error) {
			t.Helper()
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
			t.Logf("%s %s: %s (overrun %s): %v", s.name, what, took.Round(time.Millisecond), (took - bound).Round(time.Millisecond), err)
		}
		withDeadline := func(f func(context.Context) error) func() error {
			return func() error {
				cctx, cancel := context.WithTimeout(ctx, deadline)
				defer cancel()
				return f(cctx)
			}
		}
		timed("Lock.Refresh", deadline, withDeadline(func(ctx context.Context) error { return l.Refresh(ctx, 10*time.Second) }))
		timed("Refresh", deadline, withDeadline(func(ctx context.Context) error {
			return fix.Refresh(ctx, c, "lock:{stall}", l.Token(), 10*time.Second)
		}))
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		timed("Lock.Release (cancelled ctx)", deadline, func() error { return l.Release(cancelled) })
		timed("Release", fix.DefaultReleaseTimeout, func() error { return fix.Release(cancelled, c, "lock:{stall}", l.Token()) })
		// The acquires go last, so that the network comes back within the
		// client's read timeout of them: their replies then arrive and
		// their tokens are removed. (A stall that outlasts the read timeout
		// leaves the removal racing the acquire in the network; see the
		// package doc.)
		timed("Obtain (deadline)", deadline, withDeadline(func(ctx context.Context) error {
			_, err := fix.Obtain(ctx, c, "lock:{cut}", time.Minute)
			if !errors.Is(err, fix.ErrNotObtained) || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Obtain: err = %v, want ErrNotObtained and DeadlineExceeded", err)
			}
			return err
		}))
		timed("Obtain (WithMaxWait, fenced)", deadline, func() error {
			_, err := fix.Obtain(ctx, c, "lock:{cut2}", time.Minute, fix.WithFencing(), fix.WithMaxWait(deadline))
			return err
		})

		// The watchdog's renewals cannot get through; its lock's Context
		// must end by the local lease (Until no longer moves once it ended).
		var endedAt time.Time
		select {
		case endedAt = <-ended:
		case <-time.After(max(0, time.Until(watched.Until())+time.Second)):
			select {
			case endedAt = <-ended:
			default:
				t.Fatalf("watched lock's context still live a second past its lease (%s after the stall)", time.Since(stalled))
			}
		}
		until := watched.Until()
		late := endedAt.Sub(until)
		if late > slack {
			t.Errorf("watched lock's context ended %s after Until", late)
		}
		worst = max(worst, late)
		t.Logf("%s watchdog: context ended %s after Until (%s after the stall): %v", s.name,
			late.Round(time.Millisecond), endedAt.Sub(stalled).Round(time.Millisecond), context.Cause(watched.Context()))
		t.Logf("%s worst overrun: %s", s.name, worst.Round(time.Millisecond))

		s.proxy.Resume()
		// The cut-off acquires ran once the network came back (the
		// proxy held their bytes); their tokens are removed when their
		// replies arrive.
		deadlineGone := time.Now().Add(clientGiveUp + fix.DefaultReleaseTimeout)
		for _, key := range []string{"lock:{cut}", "lock:{cut2}"} {
			for s.admin.Exists(ctx, key).Val() != 0 {
				if time.Now().After(deadlineGone) {
					t.Fatalf("%s still holds the cut-off acquire's token", key)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
		// Everything cut off has come back.
		waitInFlight(t, 0, 2*clientGiveUp)
		_ = watched.Release(ctx)
		_ = l.Release(ctx)
	})
}

// proxyLeakOpts also ignores the fault proxy's own goroutines.
func proxyLeakOpts() []goleak.Option {
	return append(leakOpts(),
		goleak.IgnoreAnyFunction("github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest.(*Proxy).requests"),
		goleak.IgnoreAnyFunction("github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest.(*Proxy).replies"),
		goleak.IgnoreAnyFunction("github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest.(*Proxy).accept"))
}

// TestDefaultClientCommandsInFlightEnd checks that what the deadline cut
// off does end: with the network stalled for good, the goroutines that
// carry the abandoned commands exit within the client's read timeout.
func TestDefaultClientCommandsInFlightEnd(t *testing.T) {
	srv := redistest.Start(t)
	proxy := redistest.StartProxy(t, srv.Addr)
	c := redis.NewClient(&redis.Options{Addr: proxy.Addr})
	defer c.Close()
	ctx := ctxT(t)
	c.Ping(ctx)
	opts := proxyLeakOpts()
	waitInFlight(t, 0, 2*clientGiveUp) // what earlier tests cut off
	proxy.Stall()
	start := time.Now()
	for range 5 {
		cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		_, err := fix.Obtain(cctx, c, "lock:{gone}", time.Minute)
		cancel()
		if !errors.Is(err, fix.ErrNotObtained) {
			t.Fatalf("err = %v", err)
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("five 100 ms Obtains took %s", d)
	}
	if n := fix.InFlight(); n != 5 {
		t.Errorf("InFlight() = %d after five cut-off acquires, want 5", n)
	}
	// Each cut-off acquire ends when the client's read times out, and then
	// sends the removal of its token, which the client also gives up on
	// after a read timeout: two read timeouts in all.
	deadline := start.Add(2 * clientGiveUp)
	for {
		err := goleak.Find(opts...)
		if err == nil && fix.InFlight() == 0 {
			t.Logf("in-flight commands ended %s after the first was cut off", time.Since(start).Round(time.Millisecond))
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("commands still in flight %s after the first was cut off (InFlight %d): %v", time.Since(start), fix.InFlight(), err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitInFlight waits until fix.InFlight() is n.
func waitInFlight(t *testing.T, n int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for fix.InFlight() != n {
		if time.Now().After(deadline) {
			t.Fatalf("InFlight() = %d after %s, want %d", fix.InFlight(), within, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
