package behaviour_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"
)

// TestWaiterWokenOnReleaseAcrossClients queues a waiter of one process
// (client) behind the lock of another and releases it: the waiter must
// have it within a bound far under Backoff.Cap, so it was woken, and
// must have sent a handful of commands while it waited, not a poll every
// Base.
func TestWaiterWokenOnReleaseAcrossClients(t *testing.T) {
	eachWakeServer(t, func(t *testing.T, s wakeTarget) {
		ctx := ctxT(t)
		const key = "lock:{wake}"
		holder, err := holdFair(ctx, s.dial(t), key)
		if err != nil {
			t.Fatal(err)
		}
		backoff := fix.Backoff{Base: 10 * time.Millisecond, Cap: 2 * time.Second}
		got := make(chan time.Time, 1)
		var waited *fix.Lock
		go func() {
			l, err := fix.Obtain(ctx, s.client, key, time.Second, fix.WithMaxWait(5*time.Second), fix.WithBackoff(backoff))
			if err != nil {
				t.Error(err)
			}
			waited = l
			got <- time.Now()
		}()
		eventually(t, time.Second, "the waiter queued on the server", func() bool { return len(serverQueue(t, s.admin, key)) == 1 })
		// The subscription's connection sends HELLO and the like through
		// the client's hooks when it connects.
		eventually(t, time.Second, "the waiter subscribed", func() bool {
			return s.admin.PubSubNumSub(ctx, key+":wake").Val()[key+":wake"] == 1
		})
		time.Sleep(10 * time.Millisecond)
		before := s.sent.Load()
		time.Sleep(time.Second) // half the Cap: no poll is due
		sentWhileHeld := s.sent.Load() - before

		released := time.Now()
		if err := holder.Release(ctx); err != nil {
			t.Fatal(err)
		}
		at := <-got
		if waited == nil {
			t.FailNow()
		}
		defer waited.Release(ctx)
		if d := at.Sub(released); d > 150*time.Millisecond {
			t.Errorf("waiter obtained the lock %s after the release; want a wake-up, well under the 2 s Cap", d)
		}
		// The subscription's confirmation may come after the first attempt
		// and make the waiter ask once more; nothing else is due.
		if sentWhileHeld > 1 {
			t.Errorf("the waiter sent %d commands in a second of waiting, want at most 1", sentWhileHeld)
		}
		if got := s.admin.Get(ctx, key).Val(); got != waited.Token() {
			t.Errorf("key holds %q, want the waiter's token", got)
		}
		t.Logf("%s: woken %s after the release; %d commands while the lock was held for a second", s.name, at.Sub(released).Round(time.Millisecond), sentWhileHeld)
	})
}

// TestWaiterTakesLockWhenHolderDies: a holder that never releases (its
// process died) leaves the lock to expire; the waiter, told the lease by
// the server, asks again when it ends rather than at the next Cap.
func TestWaiterTakesLockWhenHolderDies(t *testing.T) {
	eachWakeServer(t, func(t *testing.T, s wakeTarget) {
		ctx := ctxT(t)
		const key = "lock:{dead}"
		const lease = 400 * time.Millisecond
		set := time.Now()
		if err := s.admin.Set(ctx, key, "a-holder-that-died", lease).Err(); err != nil {
			t.Fatal(err)
		}
		l, err := fix.Obtain(ctx, s.client, key, time.Second, fix.WithMaxWait(5*time.Second),
			fix.WithBackoff(fix.Backoff{Base: 10 * time.Millisecond, Cap: 3 * time.Second}))
		if err != nil {
			t.Fatal(err)
		}
		defer l.Release(ctx)
		took := time.Since(set)
		if took < lease-s.expiryError || took > lease+150*time.Millisecond {
			t.Errorf("obtained %s after a %s lease was set, want shortly after it ended", took.Round(time.Millisecond), lease)
		}
		t.Logf("%s: obtained %s after the dead holder's lease began", s.name, took.Round(time.Millisecond))
	})
}

// TestMissedWakeUpCostsAtMostCap frees a lock without a wake-up: deleted
// by code that does not know the queue, released by a lock taken with a
// single attempt (DELEX or the plain script), or released as a user who
// may not publish, to a waiter that may not subscribe. The waiter must
// still have the lock within Backoff.Cap of the release.
func TestMissedWakeUpCostsAtMostCap(t *testing.T) {
	const lockCap = 300 * time.Millisecond
	backoff := fix.WithBackoff(fix.Backoff{Base: 10 * time.Millisecond, Cap: lockCap})
	run := func(t *testing.T, admin *redis.Client, holderClient, waiterClient *redis.Client, free func(ctx context.Context, key string, holder *fix.Lock) error) {
		ctx := ctxT(t)
		const key = "lock:{missed}"
		holder, err := fix.Obtain(ctx, holderClient, key, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan time.Time, 1)
		go func() {
			l, err := fix.Obtain(ctx, waiterClient, key, time.Second, fix.WithMaxWait(5*time.Second), backoff)
			if err != nil {
				t.Error(err)
			} else {
				l.Release(ctx)
			}
			got <- time.Now()
		}()
		eventually(t, time.Second, "the waiter queued on the server", func() bool { return len(serverQueue(t, admin, key)) == 1 })
		time.Sleep(50 * time.Millisecond)
		freed := time.Now()
		if err := free(ctx, key, holder); err != nil {
			t.Fatal(err)
		}
		if d := (<-got).Sub(freed); d > lockCap+100*time.Millisecond {
			t.Errorf("waiter obtained the lock %s after it was freed, want within the %s Cap", d.Round(time.Millisecond), lockCap)
		} else {
			t.Logf("obtained %s after the lock was freed", d.Round(time.Millisecond))
		}
	}
	eachWakeServer(t, func(t *testing.T, s wakeTarget) {
		t.Run("deleted", func(t *testing.T) {
			run(t, s.admin, s.dial(t), s.client, func(ctx context.Context, key string, _ *fix.Lock) error {
				return s.admin.Del(ctx, key).Err()
			})
		})
		t.Run("single-attempt holder", func(t *testing.T) {
			run(t, s.admin, s.dial(t), s.client, func(ctx context.Context, _ string, holder *fix.Lock) error {
				return holder.Release(ctx)
			})
		})
	})
	t.Run("no channels", func(t *testing.T) {
		// eachServer's redis-server user has no channel permissions.
		srv := redistest.Start(t)
		admin := srv.Client(t, nil)
		setWaiterUser(t, admin, "resetchannels")
		c := func() *redis.Client { return srv.Client(t, &redis.Options{Username: "waiter", Password: "waiter-pw"}) }
		run(t, admin, c(), c(), func(ctx context.Context, _ string, holder *fix.Lock) error {
			return holder.Release(ctx)
		})
	})
}

// holdFair takes key as a waiting caller does, so that its release knows
// the queue: a lock taken with a single attempt releases with DELEX or the
// plain script and wakes no other process.
func holdFair(ctx context.Context, c *redis.Client, key string) (*fix.Lock, error) {
	return fix.Obtain(ctx, c, key, 10*time.Second, fix.WithMaxWait(time.Second))
}

// scriptSHA returns the SHA1 under which the library runs a script.
func scriptSHA(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "lock", "scripts", name))
	if err != nil {
		t.Fatal(err)
	}
	return redis.NewScript(string(src)).Hash()
}

// TestWaiterGivingUpMidHandOffPassesLockOn delays the reply of a release
// that hands the lock to the next waiter of its process, and lets that
// waiter's wait run out meanwhile: the waiter returns at its deadline, and
// the release hands the lock on to the waiter after it, so no lock is left
// with a waiter that is gone.
func TestWaiterGivingUpMidHandOffPassesLockOn(t *testing.T) {
	handoff := scriptSHA(t, "handoff.lua")
	eachProxiedServer(t, func(t *testing.T, s proxied) {
		c := s.client(t, nil)
		ctx := ctxT(t)
		const key = "lock:{mid}"
		holder, err := fix.Obtain(ctx, c, key, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var queued1, queued2 atomic.Int64
		obs1 := &fix.Observer{Contended: func(context.Context, string, int) { queued1.Add(1) }}
		obs2 := &fix.Observer{Contended: func(context.Context, string, int) { queued2.Add(1) }}
		type result struct {
			l   *fix.Lock
			err error
			at  time.Time
		}
		first, second := make(chan result, 1), make(chan result, 1)
		go func() {
			l, err := fix.Obtain(ctx, c, key, time.Second, fix.WithMaxWait(400*time.Millisecond), fix.WithObserver(obs1))
			first <- result{l, err, time.Now()}
		}()
		eventually(t, time.Second, "the first waiter queued", func() bool { return queued1.Load() > 0 })
		go func() {
			l, err := fix.Obtain(ctx, c, key, time.Second, fix.WithMaxWait(5*time.Second), fix.WithObserver(obs2))
			second <- result{l, err, time.Now()}
		}()
		eventually(t, time.Second, "the second waiter queued", func() bool { return queued2.Load() > 0 })

		const delay = 600 * time.Millisecond
		f := s.proxy.Inject(&redistest.Fault{Match: func(args []string) bool {
			return len(args) > 1 && args[0] == "EVALSHA" && args[1] == handoff
		}, Times: 1, Delay: delay})
		defer s.proxy.Clear()
		start := time.Now()
		if err := holder.Release(ctx); err != nil {
			t.Fatalf("release: %v", err)
		}
		if f.Hits() != 1 {
			t.Fatalf("the hand-off was not delayed (%d hits)", f.Hits())
		}
		r1 := <-first
		if !errors.Is(r1.err, fix.ErrNotObtained) || !errors.Is(r1.err, context.DeadlineExceeded) {
			t.Fatalf("first waiter: %v, want ErrNotObtained at its deadline", r1.err)
		}
		if r1.at.After(start.Add(delay)) {
			t.Errorf("first waiter returned %s after the release began, after the delayed reply: it waited past its deadline", r1.at.Sub(start))
		}
		r2 := <-second
		if r2.err != nil {
			t.Fatalf("second waiter: %v", r2.err)
		}
		defer r2.l.Release(ctx)
		if d := r2.at.Sub(start); d > delay+200*time.Millisecond {
			t.Errorf("second waiter obtained the lock %s after the release began, want shortly after the delayed hand-off", d)
		}
		if got := s.admin.Get(ctx, key).Val(); got != r2.l.Token() {
			t.Errorf("key holds %q, want the second waiter's token", got)
		}
		t.Logf("%s: first waiter gave up after %s; second obtained %s after the release began",
			s.name, r1.at.Sub(start).Round(time.Millisecond), r2.at.Sub(start).Round(time.Millisecond))
	})
}

// TestReservationForGoneProcessIsBounded reserves the lock for processes
// that cannot take it: one whose waiter gave up (it leaves the queue and
// passes the reservation on at once) and one that died (the reservation
// lapses after 250 ms plus ten Backoff.Base). The next process must have
// the lock within those bounds.
func TestReservationForGoneProcessIsBounded(t *testing.T) {
	eachWakeServer(t, func(t *testing.T, s wakeTarget) {
		ctx := ctxT(t)
		const key = "lock:{gone}"
		base := 50 * time.Millisecond
		grant := 250*time.Millisecond + 10*base
		backoff := fix.WithBackoff(fix.Backoff{Base: base, Cap: 5 * time.Second})

		t.Run("gave up", func(t *testing.T) {
			if s.name == "miniredis" {
				t.Skip("miniredis has no ACL: no waiter can be kept from hearing its wake-up")
			}
			holder, err := holdFair(ctx, s.dial(t), key)
			if err != nil {
				t.Fatal(err)
			}
			// A waiter that hears no wake-up (its user may publish but not
			// subscribe) and would not ask again for seconds.
			acl := []any{"ACL", "SETUSER", "deaf", "reset", "on", ">deaf-pw", "~*", "resetchannels", "-@all", "+publish", "&*:wake"}
			for _, c := range aclCommands {
				acl = append(acl, c)
			}
			if err := s.admin.Do(ctx, acl...).Err(); err != nil {
				t.Fatal(err)
			}
			deaf := redis.NewClient(&redis.Options{Addr: s.admin.Options().Addr, Username: "deaf", Password: "deaf-pw"})
			defer deaf.Close()
			deafCtx, giveUp := context.WithCancel(ctx)
			defer giveUp()
			deafDone := make(chan error, 1)
			go func() {
				_, err := fix.Obtain(deafCtx, deaf, key, time.Second, fix.WithMaxWait(10*time.Second), backoff)
				deafDone <- err
			}()
			eventually(t, time.Second, "the first waiter queued", func() bool { return len(serverQueue(t, s.admin, key)) == 1 })
			got := make(chan *fix.Lock, 1)
			go func() {
				l, err := fix.Obtain(ctx, s.client, key, time.Second, fix.WithMaxWait(5*time.Second), backoff)
				if err != nil {
					t.Error(err)
				}
				got <- l
			}()
			eventually(t, time.Second, "the second waiter queued", func() bool { return len(serverQueue(t, s.admin, key)) == 2 })
			if err := holder.Release(ctx); err != nil {
				t.Fatal(err)
			}
			if q := serverQueue(t, s.admin, key); len(q) != 1 || s.admin.Get(ctx, key).Val() == "" {
				t.Fatalf("after the release: lock %q, queue %v; want it reserved for the first waiter", s.admin.Get(ctx, key).Val(), q)
			}
			gaveUp := time.Now()
			giveUp()
			if err := <-deafDone; !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled waiter: %v", err)
			}
			l := <-got
			if l == nil {
				t.FailNow()
			}
			defer l.Release(ctx)
			if d := time.Since(gaveUp); d > grant/2 {
				t.Errorf("next waiter obtained the lock %s after the first gave up, want it passed on at once (not after the %s reservation)", d, grant)
			}
			t.Logf("obtained %s after the waiter it was reserved for gave up", time.Since(gaveUp).Round(time.Millisecond))
		})

		t.Run("died", func(t *testing.T) {
			// The releaser's Backoff sets how long the reservation lasts:
			// the holder shares the waiter's, so the bound is one grant.
			holder, err := fix.Obtain(ctx, s.dial(t), key, 10*time.Second, fix.WithMaxWait(time.Second), backoff)
			if err != nil {
				t.Fatal(err)
			}
			// The entry of a process that queued and died.
			if err := s.admin.Set(ctx, key+":queue", `["qdead"]`, time.Minute).Err(); err != nil {
				t.Fatal(err)
			}
			got := make(chan time.Time, 1)
			go func() {
				l, err := fix.Obtain(ctx, s.client, key, time.Second, fix.WithMaxWait(5*time.Second), backoff)
				if err != nil {
					t.Error(err)
				} else {
					l.Release(ctx)
				}
				got <- time.Now()
			}()
			eventually(t, time.Second, "the waiter queued behind the dead entry", func() bool { return len(serverQueue(t, s.admin, key)) == 2 })
			released := time.Now()
			if err := holder.Release(ctx); err != nil {
				t.Fatal(err)
			}
			if v := s.admin.Get(ctx, key).Val(); v != "qdead" {
				t.Fatalf("lock %q after the release, want it reserved for the dead entry", v)
			}
			d := (<-got).Sub(released)
			if d < grant-s.expiryError-10*time.Millisecond || d > grant+150*time.Millisecond {
				t.Errorf("waiter obtained the lock %s after the release, want when the %s reservation lapsed", d.Round(time.Millisecond), grant)
			}
			t.Logf("%s: obtained %s after a release reserved the lock for a dead process", s.name, d.Round(time.Millisecond))
		})
	})
}

// turn records one holding of a key.
type turn struct {
	worker   int
	client   int
	fence    int64
	wait     time.Duration
	from, to time.Time
}

// contendFair runs workers on one key, spread over clients, each
// acquiring (fenced), holding for hold and releasing until the run ends.
func contendFair(t *testing.T, dial func(t *testing.T) *redis.Client, key string, workers, clients int, hold, runFor time.Duration) []turn {
	ctx := ctxT(t)
	cs := make([]*redis.Client, clients)
	for i := range cs {
		cs[i] = dial(t)
	}
	var (
		mu    sync.Mutex
		turns []turn
		wg    sync.WaitGroup
	)
	stop := time.Now().Add(runFor)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := w % clients
			for time.Now().Before(stop) {
				start := time.Now()
				l, err := fix.Obtain(ctx, cs[c], key, 5*time.Second, fix.WithFencing(), fix.WithMaxWait(10*time.Second))
				if err != nil {
					t.Errorf("worker %d: %v", w, err)
					return
				}
				from := time.Now()
				time.Sleep(hold)
				to := time.Now()
				if err := l.Release(ctx); err != nil {
					t.Errorf("worker %d: release: %v", w, err)
				}
				mu.Lock()
				turns = append(turns, turn{w, c, l.Fence(), from.Sub(start), from, to})
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return turns
}

// TestFairUnderManyWaiters runs 16 waiters on one client and 64 spread
// over 8 clients on one key: no two holders overlap, fences rise in the
// order of the holdings, the worker that just released wins the next
// turn rarely, every worker gets turns, and no wait comes near the
// deadline. Afterwards no goroutine, subscription or connection of the
// waits is left.
func TestFairUnderManyWaiters(t *testing.T) {
	for _, shape := range []struct {
		name             string
		workers, clients int
	}{{"16 waiters, 1 client", 16, 1}, {"64 waiters, 8 clients", 64, 8}} {
		t.Run(shape.name, func(t *testing.T) {
			eachWakeServer(t, func(t *testing.T, s wakeTarget) {
				defer goleak.VerifyNone(t, leakOpts()...)
				var clients []*redis.Client
				dial := func(t *testing.T) *redis.Client {
					c := s.dial(t)
					clients = append(clients, c)
					return c
				}
				const hold = 2 * time.Millisecond
				turns := contendFair(t, dial, "lock:{fair}", shape.workers, shape.clients, hold, 1500*time.Millisecond)
				if t.Failed() {
					return
				}
				// Ordered by fence, which the server issues in order.
				byFence := map[int64]turn{}
				counts := map[int]int{}
				same := 0
				var maxWait time.Duration
				var last *turn
				for _, tr := range turns {
					if _, dup := byFence[tr.fence]; dup {
						t.Fatalf("fence %d issued twice", tr.fence)
					}
					byFence[tr.fence] = tr
					counts[tr.worker]++
					maxWait = max(maxWait, tr.wait)
				}
				for f := int64(1); f <= int64(len(turns)); f++ {
					tr, ok := byFence[f]
					if !ok {
						continue
					}
					if last != nil {
						if tr.from.Before(last.to) {
							t.Errorf("fence %d held from before fence %d's holding ended", tr.fence, last.fence)
						}
						if tr.worker == last.worker {
							same++
						}
					}
					last = &tr
				}
				share := float64(same) / float64(len(turns))
				if share > 0.4 {
					t.Errorf("the releaser took the next turn %d of %d times", same, len(turns))
				}
				if len(counts) != shape.workers {
					t.Errorf("%d of %d workers got a turn", len(counts), shape.workers)
				}
				if maxWait > 2*time.Second {
					t.Errorf("longest wait %s", maxWait)
				}
				t.Logf("%s: %d turns, releaser took the next %.0f%%, longest wait %s", s.name, len(turns), 100*share, maxWait.Round(time.Millisecond))

				// Subscriptions end on their own goroutine once no waiter is
				// queued on the server any more.
				eventually(t, time.Second, "no pub/sub connection left", func() bool {
					for _, c := range clients {
						if c.PoolStats().PubSubStats.Active != 0 {
							return false
						}
					}
					return true
				})
				if n := s.admin.PubSubNumSub(context.Background(), "lock:{fair}:wake").Val()["lock:{fair}:wake"]; n != 0 {
					t.Errorf("%d subscribers left on the wake-up channel", n)
				}
				if n := s.admin.Exists(context.Background(), "lock:{fair}", "lock:{fair}:queue").Val(); n != 0 {
					t.Errorf("%d of the lock and queue keys left", n)
				}
			})
		})
	}
}

// TestQueuedProcessHoldsOneSubscription queues eight waiters of one client
// behind another client's lock: they share one pub/sub connection, and
// their process has one entry in the server's queue; when the last of them
// has returned, the connection is gone.
func TestQueuedProcessHoldsOneSubscription(t *testing.T) {
	eachWakeServer(t, func(t *testing.T, s wakeTarget) {
		ctx := ctxT(t)
		const key = "lock:{conns}"
		holder, err := holdFair(ctx, s.dial(t), key)
		if err != nil {
			t.Fatal(err)
		}
		c := s.dial(t)
		idle := c.PoolStats().TotalConns
		var wg sync.WaitGroup
		var obtained atomic.Int64
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				l, err := fix.Obtain(ctx, c, key, time.Second, fix.WithMaxWait(5*time.Second))
				if err != nil {
					t.Error(err)
					return
				}
				obtained.Add(1)
				time.Sleep(time.Millisecond)
				l.Release(ctx)
			}()
		}
		eventually(t, time.Second, "the process queued", func() bool { return len(serverQueue(t, s.admin, key)) == 1 })
		eventually(t, time.Second, "a subscription", func() bool { return c.PoolStats().PubSubStats.Active == 1 })
		time.Sleep(100 * time.Millisecond)
		st := c.PoolStats()
		if st.PubSubStats.Active != 1 || st.TotalConns > idle+1 {
			t.Errorf("eight waiters hold %d pub/sub and %d pooled connections (%d before), want 1 and at most 1 more", st.PubSubStats.Active, st.TotalConns, idle)
		}
		if q := serverQueue(t, s.admin, key); len(q) != 1 {
			t.Errorf("server queue %v, want one entry for the process", q)
		}
		if err := holder.Release(ctx); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		if obtained.Load() != 8 {
			t.Fatalf("%d of 8 waiters obtained the lock", obtained.Load())
		}
		eventually(t, time.Second, "the subscription closed", func() bool { return c.PoolStats().PubSubStats.Active == 0 })
	})
}
