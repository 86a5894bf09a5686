package behaviour_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/redis/go-redis/v9"
)

// fenceLife is the documented life of a fence counter from its start; no
// fence renews it.
const fenceLife = 24 * time.Hour

// scriptReplies records, per library script, the replies a client got to
// it, to tell which script issued a fence.
type scriptReplies struct {
	mu      sync.Mutex
	replies map[string][]any // by script file name
	byHash  map[string]string
}

func newScriptReplies(t *testing.T, names ...string) *scriptReplies {
	r := &scriptReplies{replies: map[string][]any{}, byHash: map[string]string{}}
	for _, n := range names {
		src, err := os.ReadFile("../../lock/scripts/" + n)
		if err != nil {
			t.Fatal(err)
		}
		h := sha1.Sum(src)
		r.byHash[hex.EncodeToString(h[:])] = n
	}
	return r
}

func (r *scriptReplies) record(cmd redis.Cmder) {
	args := cmd.Args()
	if len(args) < 2 {
		return
	}
	word, _ := args[0].(string)
	body, _ := args[1].(string)
	var hash string
	switch strings.ToUpper(word) {
	case "EVALSHA":
		hash = body
	case "EVAL":
		h := sha1.Sum([]byte(body))
		hash = hex.EncodeToString(h[:])
	default:
		return
	}
	c, ok := cmd.(*redis.Cmd)
	name := r.byHash[hash]
	if !ok || name == "" || c.Err() != nil {
		return
	}
	r.mu.Lock()
	r.replies[name] = append(r.replies[name], c.Val())
	r.mu.Unlock()
}

// issued says whether script returned fence: as its reply (fenced.lua),
// its first element (acquire.lua) or its second after a hand-off
// (handoff.lua).
func (r *scriptReplies) issued(script string, fence int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range r.replies[script] {
		switch v := v.(type) {
		case int64:
			if v == fence {
				return true
			}
		case []any:
			if len(v) == 1 && v[0] == fence || len(v) == 2 && v[0] == int64(1) && v[1] == fence && script == "handoff.lua" {
				return true
			}
		}
	}
	return false
}

func (r *scriptReplies) DialHook(next redis.DialHook) redis.DialHook { return next }

func (r *scriptReplies) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		r.record(cmd)
		return err
	}
}

func (r *scriptReplies) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := next(ctx, cmds)
		for _, c := range cmds {
			r.record(c)
		}
		return err
	}
}

// serverMicros is the server's TIME in microseconds.
func serverMicros(t *testing.T, ctx context.Context, admin *redis.Client) int64 {
	t.Helper()
	now, err := admin.Time(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	return now.UnixMicro()
}

// checkCounter checks that counter holds fence and expires within its
// life, and, when the test started it within the last minute, after most
// of it.
func checkCounter(t *testing.T, ctx context.Context, admin *redis.Client, counter string, fence int64, started bool) {
	t.Helper()
	if got, err := admin.Get(ctx, counter).Int64(); err != nil || got != fence {
		t.Errorf("counter %s = %d (%v), want %d", counter, got, err, fence)
	}
	ttl := admin.PTTL(ctx, counter).Val()
	if ttl <= 0 || ttl > fenceLife || started && ttl <= fenceLife-time.Minute {
		t.Errorf("counter %s TTL %s, want at most %s (about that for a counter just started)", counter, ttl, fenceLife)
	}
}

// TestFenceCounterRestartsAboveItsPastFences takes fences from a counter,
// then loses the counter (deleted, or expired) and takes the next fence
// through each script that issues one: the single attempt (fenced.lua), a
// waiter of another process claiming a freed lock (acquire.lua), and a
// hand-off to a waiter of the releasing process (handoff.lua). The
// restarted counter starts at the server's TIME in microseconds, above
// every fence the lost one issued, and counts on from there.
func TestFenceCounterRestartsAboveItsPastFences(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		for _, loss := range []string{"deleted", "expired"} {
			for _, path := range []string{"fenced.lua", "acquire.lua", "handoff.lua"} {
				t.Run(loss+"/"+path, func(t *testing.T) {
					ctx := ctxT(t)
					const lease = 5 * time.Second
					key := uniqueKey(t)
					counter := key + ":fence"
					// Each client is a process of its own to the library.
					rec := newScriptReplies(t, "fenced.lua", "acquire.lua", "handoff.lua")
					a := redis.NewClient(s.client.Options())
					b := redis.NewClient(s.client.Options())
					t.Cleanup(func() { a.Close(); b.Close() })
					a.AddHook(rec)
					b.AddHook(rec)

					var last int64
					for range 3 {
						l, err := fix.Obtain(ctx, a, key, lease, fix.WithFencing())
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
					checkCounter(t, ctx, s.admin, counter, last, true)

					holder, err := fix.Obtain(ctx, a, key, lease, fix.WithFencing())
					if err != nil {
						t.Fatal(err)
					}
					last = holder.Fence()
					type result struct {
						l   *fix.Lock
						err error
					}
					waited := make(chan result, 1)
					if path != "fenced.lua" {
						// A waiter of the holder's process is handed the
						// lock; one of another process claims it when freed.
						c := b
						if path == "handoff.lua" {
							c = a
						}
						go func() {
							l, err := fix.Obtain(ctx, c, key, lease, fix.WithFencing(), fix.WithMaxWait(5*time.Second))
							waited <- result{l, err}
						}()
						time.Sleep(100 * time.Millisecond)
					}

					switch loss {
					case "deleted":
						s.admin.Del(ctx, counter)
					case "expired":
						s.admin.PExpire(ctx, counter, time.Millisecond)
						eventually(t, time.Second, "the counter expires", func() bool {
							return s.admin.Exists(ctx, counter).Val() == 0
						})
					}
					// miniredis's clock moves in 2 ms steps; a server's TIME
					// moves every microsecond.
					time.Sleep(5 * time.Millisecond)
					before := serverMicros(t, ctx, s.admin)
					if err := holder.Release(ctx); err != nil {
						t.Fatal(err)
					}
					var next *fix.Lock
					if path == "fenced.lua" {
						next, err = fix.Obtain(ctx, a, key, lease, fix.WithFencing())
					} else {
						r := <-waited
						next, err = r.l, r.err
					}
					if err != nil {
						t.Fatalf("obtain after the counter was %s: %v", loss, err)
					}
					after := serverMicros(t, ctx, s.admin)
					if next.Fence() <= last {
						t.Fatalf("fence %d after %d: the restarted counter went back", next.Fence(), last)
					}
					if next.Fence() < before || next.Fence() > after {
						t.Errorf("restarted fence %d, want the server's TIME in µs, between %d and %d", next.Fence(), before, after)
					}
					if !rec.issued(path, next.Fence()) {
						t.Errorf("fence %d not issued by %s; replies %v", next.Fence(), path, rec.replies)
					}
					checkCounter(t, ctx, s.admin, counter, next.Fence(), true)
					if err := next.Release(ctx); err != nil {
						t.Fatal(err)
					}

					// A counter that exists counts on by one.
					again, err := fix.Obtain(ctx, a, key, lease, fix.WithFencing())
					if err != nil {
						t.Fatal(err)
					}
					if again.Fence() != next.Fence()+1 {
						t.Errorf("fence %d after %d, want one more", again.Fence(), next.Fence())
					}
					_ = again.Release(ctx)
				})
			}
		}
	})
}

// TestFenceCounterTTLStaysWithinItsLife reads the counter's TTL after
// fences: a new counter gets the whole life, later fences leave its TTL
// alone whatever their lease (renewing would cost each fence a command),
// and a counter from before counters had a life (small, no TTL) starts
// from the clock with its next fence.
func TestFenceCounterTTLStaysWithinItsLife(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		key := uniqueKey(t)
		counter := key + ":fence"
		obtain := func(lease time.Duration) int64 {
			t.Helper()
			l, err := fix.Obtain(ctx, s.client, key, lease, fix.WithFencing())
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
			return l.Fence()
		}

		f := obtain(2 * time.Second)
		checkCounter(t, ctx, s.admin, counter, f, true)
		s.admin.PExpire(ctx, counter, time.Hour)
		for _, lease := range []time.Duration{2 * time.Second, 200 * time.Second} {
			if g := obtain(lease); g != f+1 {
				t.Errorf("fence %d after %d, want one more", g, f)
			}
			f++
			if ttl := s.admin.PTTL(ctx, counter).Val(); ttl <= 0 || ttl > time.Hour {
				t.Errorf("TTL %s after a fence with a %s lease found 1h left, want it left alone", ttl, lease)
			}
		}

		s.admin.Set(ctx, counter, 41, 0)
		before := serverMicros(t, ctx, s.admin)
		f = obtain(2 * time.Second)
		if f < before {
			t.Errorf("fence %d from a counter at 41, want the server's TIME in µs (%d or later)", f, before)
		}
		checkCounter(t, ctx, s.admin, counter, f, true)
	})
}

// TestSharedFenceCounterLifecycle gives two locks one counter
// (WithFenceKey): it lives a day from the fence that started it, whichever
// lock's, and a lost counter starts again above the fences of both, the
// record of each lock holding its own.
func TestSharedFenceCounterLifecycle(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		ctx := ctxT(t)
		const counter = "fences:{shared-life}"
		keyA, keyB := "lock:{shared-life}:a", "lock:{shared-life}:b"
		long, short := 200*time.Second, time.Second

		a, err := fix.Obtain(ctx, s.client, keyA, long, fix.WithFenceKey(counter))
		if err != nil {
			t.Fatal(err)
		}
		checkCounter(t, ctx, s.admin, counter, a.Fence(), true)
		b, err := fix.Obtain(ctx, s.client, keyB, short, fix.WithFenceKey(counter))
		if err != nil {
			t.Fatal(err)
		}
		if b.Fence() != a.Fence()+1 {
			t.Errorf("fences %d then %d from one counter", a.Fence(), b.Fence())
		}
		checkCounter(t, ctx, s.admin, counter, b.Fence(), true)
		if got, _ := s.admin.Get(ctx, keyA+":fenced").Int64(); got != a.Fence() {
			t.Errorf("A's record %d, want %d", got, a.Fence())
		}
		if err := b.Release(ctx); err != nil {
			t.Fatal(err)
		}

		// Lost while A still holds its lock: B's next fence starts the
		// counter again above both, and A's record still holds A's fence.
		s.admin.Del(ctx, counter)
		time.Sleep(5 * time.Millisecond) // miniredis's clock steps
		b, err = fix.Obtain(ctx, s.client, keyB, short, fix.WithFenceKey(counter))
		if err != nil {
			t.Fatal(err)
		}
		if b.Fence() <= a.Fence()+1 {
			t.Errorf("fence %d after a new start, want above %d", b.Fence(), a.Fence()+1)
		}
		checkCounter(t, ctx, s.admin, counter, b.Fence(), true)
		if got, _ := s.admin.Get(ctx, keyA+":fenced").Int64(); got != a.Fence() {
			t.Errorf("A's record %d after the new start, want %d", got, a.Fence())
		}
		if got, _ := s.admin.Get(ctx, keyB+":fenced").Int64(); got != b.Fence() {
			t.Errorf("B's record %d, want %d", got, b.Fence())
		}
		for _, l := range []*fix.Lock{a, b} {
			if err := l.Release(ctx); err != nil && !errors.Is(err, fix.ErrNotHeld) {
				t.Fatal(err)
			}
		}
	})
}

// TestResentAcquireFindsItsFenceGone loses the reply to a fenced acquire
// that ran, and removes the fence it issued before the client's re-sent
// copy arrives: the lock's own counter (as if it had expired just then),
// or the record of a shared counter. The copy finds the caller's token but
// not its fence, so Obtain fails, removes its token and issues no second
// fence.
func TestResentAcquireFindsItsFenceGone(t *testing.T) {
	eachProxiedServer(t, func(t *testing.T, s proxied) {
		for _, shared := range []bool{false, true} {
			name := map[bool]string{false: "own", true: "shared"}[shared]
			t.Run(name, func(t *testing.T) {
				ctx := ctxT(t)
				key := "lock:{gone/" + name + "}"
				counter, gone := key+":fence", key+":fence"
				opts := []fix.Option{fix.WithFencing()}
				warmOpts := opts
				if shared {
					counter, gone = "fences:{gone/"+name+"}", key+":fenced"
					opts = []fix.Option{fix.WithFenceKey(counter)}
					warmOpts = []fix.Option{fix.WithFenceKey("fences:{warm}")}
				}
				c := s.client(t, nil)
				// Scripts loaded, so the lost reply is that of an acquire
				// that ran.
				warm, err := fix.Obtain(ctx, c, "lock:{warm}", time.Second, warmOpts...)
				if err != nil {
					t.Fatal(err)
				}
				if err := warm.Release(ctx); err != nil {
					t.Fatal(err)
				}
				lost := s.proxy.Inject(&redistest.Fault{Match: isAcquire, Times: 1})
				var issued string
				var once sync.Once
				s.proxy.Inject(&redistest.Fault{Times: 1, Match: func(args []string) bool {
					if lost.Hits() == 1 && isAcquire(args) {
						once.Do(func() {
							issued = s.admin.Get(ctx, counter).Val()
							s.admin.Del(ctx, gone)
						})
					}
					return false
				}})
				l, err := fix.Obtain(ctx, c, key, 10*time.Second, opts...)
				if !errors.Is(err, fix.ErrNotObtained) {
					t.Fatalf("Obtain whose fence went before its re-sent copy: %v, %v; want ErrNotObtained", l, err)
				}
				if issued == "" {
					t.Fatal("the re-sent copy was not seen")
				}
				if got := s.admin.Get(ctx, key).Val(); got != "" {
					t.Errorf("key holds %q after the failed Obtain", got)
				}
				want := issued
				if !shared {
					want = "" // deleted, and not started again
				}
				if got := s.admin.Get(ctx, counter).Val(); got != want {
					t.Errorf("counter %q, want %q: a second fence was issued", got, want)
				}
			})
		}
	})
}
