package behaviour_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/redis/go-redis/v9"
)

// proxied is a server reached through a fault proxy by a client built with
// default options (only Addr, unless a case says otherwise), plus an admin
// client that bypasses the proxy.
type proxied struct {
	name  string
	proxy *redistest.Proxy
	admin *redis.Client
	// lag is how early the server may expire a key (miniredis's clock
	// steps; zero for redis-server).
	lag func() time.Duration
}

// eachProxiedServer runs fn against miniredis and a real redis-server, each
// behind its own fault proxy.
func eachProxiedServer(t *testing.T, fn func(t *testing.T, s proxied)) {
	t.Run("miniredis", func(t *testing.T) {
		m := redistest.Miniredis(t)
		admin := redis.NewClient(&redis.Options{Addr: m.Addr()})
		t.Cleanup(func() { admin.Close() })
		fn(t, proxied{"miniredis", redistest.StartProxy(t, m.Addr()), admin, func() time.Duration { return redistest.ClockLag(m) }})
	})
	t.Run("redis-server", func(t *testing.T) {
		srv := redistest.Start(t)
		fn(t, proxied{"redis-server", redistest.StartProxy(t, srv.Addr), srv.Client(t, nil), func() time.Duration { return 0 }})
	})
}

func (s proxied) client(t *testing.T, opts *redis.Options) *redis.Client {
	if opts == nil {
		opts = &redis.Options{}
	}
	opts.Addr = s.proxy.Addr
	c := redis.NewClient(opts)
	t.Cleanup(func() { c.Close() })
	return c
}

// isAcquire matches the command an Obtain attempt sends: SET ... NX on the
// plain path, an acquire script otherwise (the fenced one takes two keys
// or more and two arguments, the queueing one more; release and refresh
// scripts take one key and fewer arguments).
func isAcquire(args []string) bool {
	script := redistest.Command("EVALSHA")(args) || redistest.Command("EVAL")(args)
	return redistest.Command("SET", "NX")(args) || script && len(args) >= 7
}

// TestLostAcquireReplyIsNotContention swallows the reply to an acquire that
// ran, so the client (go-redis re-sends a command whose reply did not
// arrive, three times by default) sends it again and the copy finds the
// caller's own token. That must count as success, with the fence of the
// first copy and no second INCR, and leave nothing behind once released.
// Two ways to lose a reply: the connection is reset once the reply arrived
// (a default client), and the reply never comes (a client with a 100 ms
// read timeout; the default 5 s would only slow the test down).
func TestLostAcquireReplyIsNotContention(t *testing.T) {
	variants := []struct {
		name   string
		fenced bool
		opts   []fix.Option
	}{
		{"single", false, nil},
		{"single+fencing", true, []fix.Option{fix.WithFencing()}},
		{"deadline", false, []fix.Option{fix.WithMaxWait(2 * time.Second)}},
		{"deadline+fencing", true, []fix.Option{fix.WithFencing(), fix.WithMaxWait(2 * time.Second)}},
	}
	losses := []struct {
		name string
		opts *redis.Options
		hold time.Duration
	}{
		{"reset", nil, 0},
		{"silent", &redis.Options{ReadTimeout: 100 * time.Millisecond}, -1},
	}
	eachProxiedServer(t, func(t *testing.T, s proxied) {
		for _, loss := range losses {
			for _, v := range variants {
				t.Run(loss.name+"/"+v.name, func(t *testing.T) {
					var opts *redis.Options
					if loss.opts != nil {
						o := *loss.opts
						opts = &o
					}
					c := s.client(t, opts)
					ctx := ctxT(t)
					// Warm up on another key: the scripts get loaded and the
					// server's features learnt, so the lost reply is that of
					// an acquire that ran, not of a NOSCRIPT.
					warm, err := fix.Obtain(ctx, c, "lock:{warm}", time.Second, v.opts...)
					if err != nil {
						t.Fatal(err)
					}
					if err := warm.Release(ctx); err != nil {
						t.Fatal(err)
					}

					// A fresh key (and fence counter) per case on the shared server.
					key := "lock:{lost/" + loss.name + "/" + v.name + "}"
					fenceKey := key + ":fence"
					f := s.proxy.Inject(&redistest.Fault{Match: isAcquire, Times: 1, Hold: loss.hold})
					// No deadline on the call: a single attempt stays single.
					start := time.Now()
					l, err := fix.Obtain(context.Background(), c, key, 10*time.Second, v.opts...)
					took := time.Since(start)
					if f.Hits() != 1 {
						t.Fatalf("the fault hit %d commands, want 1", f.Hits())
					}
					holder := s.admin.Get(ctx, key).Val()
					counter := s.admin.Get(ctx, fenceKey).Val()
					if err != nil {
						orphan := holder != ""
						t.Fatalf("Obtain after a lost reply: %v (after %s; key left holding a token: %v, fence counter %q)",
							err, took.Round(time.Millisecond), orphan, counter)
					}
					if holder != l.Token() {
						t.Errorf("key holds %q, want the lock's token", holder)
					}
					// A new counter starts at the fence it issues: a second
					// fence would have moved it past the lock's.
					if v.fenced && (l.Fence() <= 1 || counter != strconv.FormatInt(l.Fence(), 10)) {
						t.Errorf("fence %d, counter %q: want one fence, the counter's first", l.Fence(), counter)
					}
					// The lock's own counter is its record: nothing else is written.
					if n := s.admin.Exists(ctx, key+":fenced").Val(); n != 0 {
						t.Errorf("a fence record was written for a counter of the lock's own")
					}
					if err := l.Release(ctx); err != nil {
						t.Fatalf("release: %v", err)
					}
					if n := s.admin.Exists(ctx, key).Val(); n != 0 {
						t.Errorf("key survives release")
					}
					t.Logf("%s %s %s: obtained in %s, fence %d", s.name, loss.name, v.name, took.Round(time.Millisecond), l.Fence())
				})
			}
		}
	})
}

// TestLostAcquireReplyWithSharedFenceCounter loses the reply to a fenced
// acquire whose counter (WithFenceKey) another lock also increments, and
// does so between the two copies: the re-sent copy must return the fence
// the first issued, from the record kept next to the lock, not the
// counter's later value, which belongs to the other lock.
func TestLostAcquireReplyWithSharedFenceCounter(t *testing.T) {
	eachProxiedServer(t, func(t *testing.T, s proxied) {
		for _, wait := range []bool{false, true} {
			t.Run(map[bool]string{false: "single", true: "deadline"}[wait], func(t *testing.T) {
				ctx := ctxT(t)
				key := "lock:{shared/" + strconv.FormatBool(wait) + "}"
				counter := "fences:{shared/" + strconv.FormatBool(wait) + "}"
				opts := []fix.Option{fix.WithFenceKey(counter)}
				// The warm-up loads the scripts this shape sends, so that
				// the lost reply is that of an acquire that ran.
				warmOpts := []fix.Option{fix.WithFenceKey("fences:{warm}")}
				if wait {
					opts = append(opts, fix.WithMaxWait(2*time.Second))
					warmOpts = append(warmOpts, fix.WithMaxWait(2*time.Second))
				}
				c := s.client(t, nil)
				warm, err := fix.Obtain(ctx, c, "lock:{warm}", time.Second, warmOpts...)
				if err != nil {
					t.Fatal(err)
				}
				if err := warm.Release(ctx); err != nil {
					t.Fatal(err)
				}
				lost := s.proxy.Inject(&redistest.Fault{Match: isAcquire, Times: 1})
				// The other lock's acquisition lands just before the re-sent copy.
				var other atomic.Int64
				s.proxy.Inject(&redistest.Fault{Times: 1, Match: func(args []string) bool {
					if lost.Hits() == 1 && other.Load() == 0 && isAcquire(args) {
						other.Store(s.admin.Incr(ctx, counter).Val())
					}
					return false
				}})
				l, err := fix.Obtain(ctx, c, key, 10*time.Second, opts...)
				if err != nil {
					t.Fatalf("Obtain after a lost reply: %v", err)
				}
				defer l.Release(ctx)
				// The first copy started the counter at its fence, the other
				// lock's INCR moved it one past.
				if n := other.Load(); n == 0 {
					t.Fatalf("the other lock's INCR did not run: the re-sent copy was not seen")
				}
				if l.Fence() != other.Load()-1 {
					t.Errorf("fence %d, want %d, the fence the first copy issued (counter %q)", l.Fence(), other.Load()-1, s.admin.Get(ctx, counter).Val())
				}
				if got, want := s.admin.Get(ctx, key+":fenced").Val(), strconv.FormatInt(other.Load()-1, 10); got != want {
					t.Errorf("fence record %q, want %q", got, want)
				}
			})
		}
	})
}

// TestLostReleaseAndRefreshReplies swallows the reply to a release and to
// a refresh that ran. A re-sent refresh finds its own token and extends
// again, so it succeeds. A re-sent release finds the key gone: the error,
// if any, is ErrNotHeld and says that an earlier copy may have deleted it,
// and either way the token is no longer in the key.
func TestLostReleaseAndRefreshReplies(t *testing.T) {
	eachProxiedServer(t, func(t *testing.T, s proxied) {
		c := s.client(t, nil)
		ctx := ctxT(t)
		warm, err := fix.Obtain(ctx, c, "lock:{warm}", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := warm.Refresh(ctx, time.Second); err != nil {
			t.Fatal(err)
		}
		if err := warm.Release(ctx); err != nil {
			t.Fatal(err)
		}

		const key = "lock:{lost}"
		l, err := fix.Obtain(ctx, c, key, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		isRefresh := func(args []string) bool {
			return redistest.Command("SET", "IFEQ")(args) || redistest.Command("EVALSHA")(args)
		}
		f := s.proxy.Inject(&redistest.Fault{Match: isRefresh, Times: 1})
		if err := l.Refresh(ctx, 30*time.Second); err != nil {
			t.Fatalf("refresh after a lost reply: %v", err)
		}
		if f.Hits() != 1 {
			t.Fatalf("the refresh fault hit %d commands", f.Hits())
		}
		if pttl := s.admin.PTTL(ctx, key).Val(); pttl < 20*time.Second {
			t.Errorf("PTTL after refresh = %s, want about 30s", pttl)
		}

		isRelease := func(args []string) bool {
			return redistest.Command("DELEX")(args) || redistest.Command("EVALSHA")(args)
		}
		f = s.proxy.Inject(&redistest.Fault{Match: isRelease, Times: 1})
		err = l.Release(ctx)
		if f.Hits() != 1 {
			t.Fatalf("the release fault hit %d commands", f.Hits())
		}
		if err != nil && (!errors.Is(err, fix.ErrNotHeld) || !strings.Contains(err.Error(), "re-sent")) {
			t.Errorf("release after a lost reply: %v; want nil or ErrNotHeld saying a re-sent copy may have deleted it", err)
		}
		if n := s.admin.Exists(ctx, key).Val(); n != 0 {
			t.Errorf("key survives release")
		}
		if cause := context.Cause(l.Context()); !errors.Is(cause, fix.ErrReleased) {
			t.Errorf("context cause %v, want ErrReleased", cause)
		}
		t.Logf("%s: release after a lost reply: %v", s.name, err)
	})
}

// TestPlainAcquireFallsBackBeforeRedis7 answers SET ... NX GET, which the
// polls of a wait send after its first attempt, with the syntax error a
// server older than 7.0 gives: the poll falls back to the script, once,
// and later polls on that server send the script only; the script path is
// idempotent too.
func TestPlainAcquireFallsBackBeforeRedis7(t *testing.T) {
	eachProxiedServer(t, func(t *testing.T, s proxied) {
		c := s.client(t, nil)
		ctx := ctxT(t)
		poll := []fix.Option{fix.WithoutFairness(), fix.WithMaxWait(5 * time.Second),
			fix.WithBackoff(fix.Backoff{Base: 20 * time.Millisecond, Cap: 40 * time.Millisecond})}
		// waitFor polls for the key while a holder keeps it for 100ms.
		waitFor := func(faults ...*redistest.Fault) {
			t.Helper()
			holder, err := fix.Obtain(ctx, c, "lock:{old}", 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			time.AfterFunc(100*time.Millisecond, func() { _ = holder.Release(ctx) })
			for _, f := range faults {
				s.proxy.Inject(f)
			}
			l, err := fix.Obtain(ctx, c, "lock:{old}", 10*time.Second, poll...)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.admin.Get(ctx, "lock:{old}").Val(); got != l.Token() {
				t.Fatalf("key holds %q, want the token", got)
			}
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
		}
		old := s.proxy.Inject(&redistest.Fault{Match: redistest.Command("SET", "NX", "GET"), Times: 100, Answer: "-ERR syntax error"})
		for range 3 {
			waitFor()
		}
		if old.Hits() != 1 {
			t.Errorf("SET NX GET sent %d times, want once (then the script)", old.Hits())
		}
		lost := &redistest.Fault{Match: isAcquire, Times: 1}
		waitFor(lost)
		if lost.Hits() != 1 {
			t.Errorf("the lost script reply hit %d commands, want 1", lost.Hits())
		}
	})
}

// TestLeaseDatesFromFirstCopy loses every copy of the first attempt (the
// client gives up after its retries, each copy having run) and lets the
// waiting Obtain's next attempt through: it finds its own token, so the
// server's lease dates from the first copy, and Until must not be later.
func TestLeaseDatesFromFirstCopy(t *testing.T) {
	eachProxiedServer(t, func(t *testing.T, s proxied) {
		c := s.client(t, nil)
		ctx := ctxT(t)
		warm, err := fix.Obtain(ctx, c, "lock:{warm}", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := warm.Release(ctx); err != nil {
			t.Fatal(err)
		}
		const ttl = 5 * time.Second
		f := s.proxy.Inject(&redistest.Fault{Match: isAcquire, Times: 4, Hold: 50 * time.Millisecond})
		defer s.proxy.Clear()
		l, err := fix.Obtain(ctx, c, "lock:{first}", ttl, fix.WithMaxWait(3*time.Second), fix.WithoutFairness())
		if err != nil {
			t.Fatalf("obtain after a failed first attempt: %v (fault hits %d)", err, f.Hits())
		}
		defer l.Release(ctx)
		pttl := s.admin.PTTL(ctx, "lock:{first}").Val()
		serverEnd := time.Now().Add(pttl)
		// miniredis may already count a step that began before the key was
		// set, so its expiry can be early by the longest step.
		if late, lag := l.Until().Sub(serverEnd), s.lag(); late > 5*time.Millisecond+lag {
			t.Errorf("Until is %s later than the server's expiry (PTTL %s, server clock lag up to %s)", late, pttl, lag)
		}
		t.Logf("%s: %d copies lost; Until %s before the server's expiry", s.name, f.Hits(), serverEnd.Sub(l.Until()).Round(time.Millisecond))
	})
}
