package behaviour_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/faulty"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/locklint/locklint/analyzer/fix/lock"
	"github.com/redis/go-redis/v9"
)

// libraryScripts is the library's Lua sources by file name, so that the
// fault client tells its script commands apart.
var libraryScripts = sync.OnceValues(func() (map[string]string, error) {
	files, err := filepath.Glob(filepath.Join("..", "..", "lock", "scripts", "*.lua"))
	if err != nil || len(files) == 0 {
		return nil, errors.Join(err, errors.New("no scripts in ../../lock/scripts"))
	}
	m := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		m[filepath.Base(f)] = string(b)
	}
	return m, nil
})

// faultyServer is a server and an admin client of it, past any fault.
type faultyServer struct {
	name  string
	addr  string
	admin *redis.Client
}

// eachFaultyClient runs fn for every client kind of TestClients against
// miniredis and a real redis-server, the kind's client (built with
// default options) wrapped in a fault client. wrap makes a second one.
func eachFaultyClient(t *testing.T, fn func(t *testing.T, s faultyServer, wrap func() *faulty.Client)) {
	scripts, err := libraryScripts()
	if err != nil {
		t.Fatal(err)
	}
	servers := []func(t *testing.T) faultyServer{
		func(t *testing.T) faultyServer {
			m := redistest.Miniredis(t)
			admin := redis.NewClient(&redis.Options{Addr: m.Addr()})
			t.Cleanup(func() { admin.Close() })
			return faultyServer{"miniredis", m.Addr(), admin}
		},
		func(t *testing.T) faultyServer {
			srv := redistest.Start(t)
			return faultyServer{"redis-server", srv.Addr, srv.Client(t, nil)}
		},
	}
	for i, start := range servers {
		t.Run([]string{"miniredis", "redis-server"}[i], func(t *testing.T) {
			s := start(t)
			for _, k := range clientKinds {
				t.Run(k.name, func(t *testing.T) {
					fn(t, s, func() *faulty.Client { return faulty.New(k.standalone(t, s.addr), scripts) })
				})
			}
		})
	}
}

// TestHandoffDuringStalledAttemptKeepsOneHolder: a waiter's first attempt
// stalls on the network past its wait; meanwhile the holder releases and
// hands it the lock, so its Obtain returns the lock when the wait ends.
// The stalled attempt's reply, when it comes, must not remove the token
// the waiter now holds (it did: the key was empty with the lease running,
// and a second Obtain took it).
func TestHandoffDuringStalledAttemptKeepsOneHolder(t *testing.T) {
	eachFaultyClient(t, func(t *testing.T, s faultyServer, wrap func() *faulty.Client) {
		c := wrap()
		ctx := ctxT(t)
		key := uniqueKey(t)
		h, err := lock.Obtain(ctx, c, key, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		const stall = 400 * time.Millisecond
		c.Inject(&faulty.Rule{Kind: faulty.Acquire, Nth: 2, Action: faulty.Stall, Delay: stall})
		type result struct {
			l   *lock.Lock
			err error
			at  time.Time
		}
		done := make(chan result, 1)
		start := time.Now()
		go func() {
			l, err := lock.Obtain(ctx, c, key, 3*time.Second, lock.WithMaxWait(200*time.Millisecond))
			done <- result{l, err, time.Now()}
		}()
		time.Sleep(50 * time.Millisecond)
		if err := h.Release(ctx); err != nil {
			t.Fatalf("release: %v", err)
		}
		w := <-done
		if c.Info().Deadlines {
			// The client gave up on the stalled attempt at the deadline and
			// may still send it: the waiter gives the lock up, saying so.
			if !errors.Is(w.err, lock.ErrNotObtained) || !strings.Contains(w.err.Error(), "may remain") {
				t.Fatalf("the waiter's Obtain with an attempt cut off in transit: %v, want ErrNotObtained saying its token may remain", w.err)
			}
			return
		}
		if w.err != nil {
			// Giving up is safe; the case needs the hand-off to win.
			t.Fatalf("the waiter did not get the lock handed over: %v", w.err)
		}
		// Past the stalled attempt's arrival and its clean-up.
		time.Sleep(time.Until(start.Add(stall + 300*time.Millisecond)))
		if got := s.admin.Get(ctx, key).Val(); got != w.l.Token() {
			t.Fatalf("%s after the waiter's Obtain returned (lease until %s): key holds %q, want the waiter's token",
				time.Since(w.at).Round(time.Millisecond), time.Until(w.l.Until()).Round(time.Millisecond), got)
		}
		if err := w.l.Context().Err(); err != nil {
			t.Errorf("the waiter's Context ended: %v", context.Cause(w.l.Context()))
		}
		other := wrap()
		if l2, err := lock.Obtain(ctx, other, key, time.Second); !errors.Is(err, lock.ErrNotObtained) {
			t.Errorf("a second Obtain while the waiter holds the lock: %v, want ErrNotObtained", err)
			_ = l2.Release(ctx)
		}
		if err := w.l.Release(ctx); err != nil {
			t.Errorf("the waiter's release: %v", err)
		}
		if n := s.admin.Exists(ctx, key).Val(); n != 0 {
			t.Errorf("key left after the waiter's release")
		}
	})
}

// TestHandoffDuringStalledAttemptThenRelease: as above, but the waiter
// releases the lock as soon as its Obtain returns, before the stalled
// attempt reaches the server. Release said the token is gone, so the
// attempt, when it comes, must not put it back (it did on clients that
// end a command at its deadline: the key held a token nobody owned until
// its lease ended). Such a client gives the lock up instead, and its
// Obtain says that the token may remain until the lease ends.
func TestHandoffDuringStalledAttemptThenRelease(t *testing.T) {
	eachFaultyClient(t, func(t *testing.T, s faultyServer, wrap func() *faulty.Client) {
		c := wrap()
		ctx := ctxT(t)
		key := uniqueKey(t)
		h, err := lock.Obtain(ctx, c, key, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		const stall, ttl = 400 * time.Millisecond, time.Second
		c.Inject(&faulty.Rule{Kind: faulty.Acquire, Nth: 2, Action: faulty.Stall, Delay: stall})
		start := time.Now()
		done := make(chan error, 1)
		var released time.Time
		go func() {
			l, err := lock.Obtain(ctx, c, key, ttl, lock.WithMaxWait(200*time.Millisecond))
			if err == nil {
				err = l.Release(ctx)
				released = time.Now()
			}
			done <- err
		}()
		time.Sleep(50 * time.Millisecond)
		if err := h.Release(ctx); err != nil {
			t.Fatalf("release: %v", err)
		}
		err = <-done
		switch {
		case err == nil:
			// Past the stalled attempt's arrival and anything it sets off.
			time.Sleep(time.Until(start.Add(stall + 400*time.Millisecond)))
			if got := s.admin.Get(ctx, key).Val(); got != "" {
				t.Fatalf("%s after the waiter's Release returned: key holds %q, want no key",
					time.Since(released).Round(time.Millisecond), got)
			}
		case errors.Is(err, lock.ErrNotObtained) && strings.Contains(err.Error(), "may remain"):
			// Until the end of the lease the stalled attempt sets.
			time.Sleep(time.Until(start.Add(stall + ttl + 300*time.Millisecond)))
			if got := s.admin.Get(ctx, key).Val(); got != "" {
				t.Fatalf("past the lease its Obtain said the token may stay for, key holds %q", got)
			}
		default:
			t.Fatalf("the waiter's Obtain or Release: %v", err)
		}
		if l2, err := lock.Obtain(ctx, wrap(), key, time.Second); err != nil {
			t.Errorf("an Obtain after the waiter's release: %v", err)
		} else {
			_ = l2.Release(ctx)
		}
	})
}

// TestStalledAttemptPastDeadlineLeavesNoToken: an Obtain's attempt stalls
// on the network past the Obtain's bound (its wait, or the caller's
// deadline), so the Obtain fails; the attempt reaches the server later
// and takes the free key. Its token must not stay: the failed Obtain
// either said so or removes it when the attempt's reply comes (on clients
// that end a command at its deadline, it said "no token of it is left"
// and the token stayed for the whole lease).
func TestStalledAttemptPastDeadlineLeavesNoToken(t *testing.T) {
	eachFaultyClient(t, func(t *testing.T, s faultyServer, wrap func() *faulty.Client) {
		ctx := ctxT(t)
		const stall, bound, ttl = 400 * time.Millisecond, 150 * time.Millisecond, time.Second
		for _, tc := range []struct {
			name   string
			obtain func(c lock.Client, key string) error
		}{
			{"max wait", func(c lock.Client, key string) error {
				_, err := lock.Obtain(ctx, c, key, ttl, lock.WithMaxWait(bound))
				return err
			}},
			{"caller's deadline", func(c lock.Client, key string) error {
				dctx, cancel := context.WithTimeout(ctx, bound)
				defer cancel()
				_, err := lock.Obtain(dctx, c, key, ttl)
				return err
			}},
		} {
			c := wrap()
			key := uniqueKey(t) + ":" + strings.ReplaceAll(tc.name, " ", "-")
			c.Inject(&faulty.Rule{Kind: faulty.Acquire, Nth: 1, Action: faulty.Stall, Delay: stall})
			start := time.Now()
			err := tc.obtain(c, key)
			if !errors.Is(err, lock.ErrNotObtained) {
				t.Fatalf("%s: Obtain with its attempt stalled past its bound: %v, want ErrNotObtained", tc.name, err)
			}
			// An Obtain that says the token may remain gets the lease the
			// stalled attempt sets; any other, its reply's clean-up.
			wait := stall + 400*time.Millisecond
			if strings.Contains(err.Error(), "may remain") {
				wait = stall + ttl + 300*time.Millisecond
			}
			time.Sleep(time.Until(start.Add(wait)))
			if got := s.admin.Get(ctx, key).Val(); got != "" {
				t.Errorf("%s: %s after the stalled attempt arrived, key holds %q; Obtain said: %v",
					tc.name, time.Since(start.Add(stall)).Round(time.Millisecond), got, err)
			}
		}
	})
}

// TestStalledHandoffPastWaitSaysTokenMayRemain: a release's hand-off to a
// waiter of its process stalls past the release's timeout, and the
// waiter's wait ends before it lands. The hand-off may still put the
// waiter's token in the key, so the waiter's failed Obtain must not say
// that no token of it is left: once the stall ends, the key holds it
// until the lease ends (on clients that end a command at its deadline;
// others wait for the hand-off's reply and remove it).
func TestStalledHandoffPastWaitSaysTokenMayRemain(t *testing.T) {
	eachFaultyClient(t, func(t *testing.T, s faultyServer, wrap func() *faulty.Client) {
		c := wrap()
		ctx := ctxT(t)
		key := uniqueKey(t)
		const stall, ttl = 500 * time.Millisecond, time.Second
		h, err := lock.Obtain(ctx, c, key, 5*time.Second, lock.WithReleaseTimeout(100*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		c.Inject(&faulty.Rule{Kind: faulty.Handoff, Nth: 1, Action: faulty.Stall, Delay: stall})
		start := time.Now()
		done := make(chan error, 1)
		go func() {
			l, err := lock.Obtain(ctx, c, key, ttl, lock.WithMaxWait(250*time.Millisecond))
			if err == nil {
				err = l.Release(ctx)
			}
			done <- err
		}()
		time.Sleep(50 * time.Millisecond)
		_ = h.Release(ctx) // its hand-off stalls; the outcome may be unknown
		err = <-done
		if err == nil {
			// The hand-off landed within the wait: nothing in transit.
			return
		}
		if !errors.Is(err, lock.ErrNotObtained) {
			t.Fatalf("the waiter's Obtain: %v, want ErrNotObtained", err)
		}
		time.Sleep(time.Until(start.Add(stall + 200*time.Millisecond)))
		got := s.admin.Get(ctx, key).Val()
		if got != "" && got != h.Token() && !strings.Contains(err.Error(), "may remain") {
			t.Errorf("after the stalled hand-off landed the key holds %q, the waiter's token, and its Obtain said: %v", got, err)
		}
		// Either way, the key is free once the lease ends.
		time.Sleep(time.Until(start.Add(5*time.Second + 300*time.Millisecond)))
		if got := s.admin.Get(ctx, key).Val(); got != "" {
			t.Errorf("past every lease the key holds %q", got)
		}
	})
}

// tokenOf returns the token of the first acquire of key in the history.
func tokenOf(t *testing.T, h []faulty.Sent, key string) string {
	t.Helper()
	for _, s := range h {
		if s.Kind == faulty.Acquire && len(s.Words) > 2 && s.Words[0] == "SET" && s.Words[1] == key {
			return s.Words[2]
		}
	}
	t.Fatalf("no SET NX of %q in the history", key)
	return ""
}

// TestDoGivesUpTheLockWhenReleaseFails: Do's release fails on the network
// (the delete never reaches the server). Do's caller holds nothing, so
// nothing may renew the lock after Do returned (a watchdog did, every
// TTL/3, until DefaultMaxHold), and the key must free itself at the end
// of its lease.
func TestDoGivesUpTheLockWhenReleaseFails(t *testing.T) {
	eachFaultyClient(t, func(t *testing.T, s faultyServer, wrap func() *faulty.Client) {
		c := wrap()
		ctx := ctxT(t)
		key := uniqueKey(t)
		rule := &faulty.Rule{Kind: faulty.Release, Action: faulty.FailSend, Times: 1}
		c.Inject(rule)
		const ttl = 300 * time.Millisecond
		err := lock.Do(ctx, c, key, ttl, func(ctx context.Context) error {
			time.Sleep(ttl) // across one renewal
			return nil
		})
		returned := time.Now()
		if c.Hits(rule) != 1 {
			t.Fatalf("the release fault hit %d commands, want 1", c.Hits(rule))
		}
		if !errors.Is(err, faulty.ErrInjected) {
			t.Errorf("Do: %v, want the release's transport error", err)
		}
		time.Sleep(ttl + 300*time.Millisecond)
		token := tokenOf(t, c.History(), key)
		for _, sent := range c.History() {
			if sent.At.After(returned) && sent.Carries(token) {
				t.Errorf("%s sent %s after Do returned: %q", sent.Kind, sent.At.Sub(returned).Round(time.Millisecond), sent.Words)
			}
		}
		if n := s.admin.Exists(ctx, key).Val(); n != 0 {
			t.Errorf("key still held %s after Do returned (lease %s)", time.Since(returned).Round(time.Millisecond), ttl)
		}
	})
}

// TestReleaseDoesNotWaitForStalledRenewal: the watchdog's renewal stalls
// on the network; Release stops the watchdog and must return within its
// release timeout, not when the renewal's deadline (the lease's end)
// comes, as it did on clients that end commands at their deadline.
func TestReleaseDoesNotWaitForStalledRenewal(t *testing.T) {
	eachFaultyClient(t, func(t *testing.T, s faultyServer, wrap func() *faulty.Client) {
		c := wrap()
		ctx := ctxT(t)
		key := uniqueKey(t)
		rule := &faulty.Rule{Kind: faulty.Refresh, Nth: 1, Action: faulty.Stall, Delay: 3 * time.Second}
		c.Inject(rule)
		const ttl, timeout = 1500 * time.Millisecond, 250 * time.Millisecond
		l, err := lock.Obtain(ctx, c, key, ttl, lock.WithWatchdog(time.Minute), lock.WithReleaseTimeout(timeout))
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(ttl/3 + 100*time.Millisecond)
		if c.Hits(rule) != 1 {
			t.Fatalf("the renewal fault hit %d commands, want 1", c.Hits(rule))
		}
		start := time.Now()
		err = l.Release(ctx)
		took := time.Since(start)
		if err != nil {
			t.Errorf("release: %v", err)
		}
		if took > timeout+150*time.Millisecond {
			t.Errorf("release took %s with a renewal stalled, want at most the release timeout %s", took.Round(time.Millisecond), timeout)
		}
		if n := s.admin.Exists(ctx, key).Val(); n != 0 {
			t.Errorf("key left after release")
		}
	})
}

// lagCtx has a deadline but says it is done only lag later, as a context
// whose timer fires late under load does (the library's own bound on a
// wait fires a moment after its deadline).
type lagCtx struct {
	context.Context // done at deadline+lag
	deadline        time.Time
}

func (c lagCtx) Deadline() (time.Time, bool) { return c.deadline, true }

func withLaggingDeadline(t *testing.T, parent context.Context, d, lag time.Duration) context.Context {
	deadline := time.Now().Add(d)
	ctx, cancel := context.WithDeadline(parent, deadline.Add(lag))
	t.Cleanup(cancel)
	return lagCtx{ctx, deadline}
}

// TestCutOffAttemptEndsTheWait: a waiting Obtain's attempt stalls past its
// deadline, and both its context and its client notice the deadline only
// later. On a client that ends a command at its deadline, the attempt
// returns with its copy still in transit; a later attempt before the
// context said it was done took the free key with the same token, and once its lock was released the stalled
// copy set the token again: it stayed for the whole lease after a Release
// that returned nil. The Obtain must end with the cut-off attempt (or hold
// a lock that no late copy outlives).
func TestCutOffAttemptEndsTheWait(t *testing.T) {
	eachFaultyClient(t, func(t *testing.T, s faultyServer, wrap func() *faulty.Client) {
		const d, lag, stall, ttl = 150 * time.Millisecond, 400 * time.Millisecond, 350 * time.Millisecond, 2 * time.Second
		for _, tc := range []struct {
			name string
			opts []lock.Option
		}{
			{"queued", []lock.Option{lock.WithWait()}},
			{"polling", []lock.Option{lock.WithWait(), lock.WithoutFairness()}},
		} {
			c := wrap()
			c.WritesPastDeadline(lag)
			ctx := ctxT(t)
			key := uniqueKey(t) + ":" + tc.name
			c.Inject(&faulty.Rule{Kind: faulty.Acquire, Nth: 1, Action: faulty.Stall, Delay: stall})
			start := time.Now()
			l, err := lock.Obtain(withLaggingDeadline(t, ctx, d, lag), c, key, ttl, tc.opts...)
			if err == nil {
				if err := l.Release(ctx); err != nil {
					t.Fatalf("%s: Release: %v", tc.name, err)
				}
			} else if !errors.Is(err, lock.ErrNotObtained) {
				t.Fatalf("%s: Obtain with its attempt stalled past its deadline: %v, want ErrNotObtained", tc.name, err)
			}
			// The stalled copy has landed by now.
			time.Sleep(time.Until(start.Add(stall + 300*time.Millisecond)))
			got := s.admin.Get(ctx, key).Val()
			switch {
			case got == "":
			case err == nil:
				t.Errorf("%s: the lock was released, and after its stalled attempt landed the key holds %q", tc.name, got)
			case !strings.Contains(err.Error(), "may remain"):
				t.Errorf("%s: after the stalled attempt landed the key holds %q; Obtain said: %v", tc.name, got, err)
			}
		}
	})
}
