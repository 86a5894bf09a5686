// Command lockbench compares analyzer/fix with bsm/redislock, redsync and
// two hand-written floors, the least a lock can do (SET NX PX plus a
// compare-and-delete EVALSHA) and the least a fenced lock can do (one
// script doing SET NX PX and the fence's INCR, the same release), against
// one real redis-server on loopback, in a single run:
//
//   - uncontended acquire+release cycles/s, 1 and 16 goroutines on distinct
//     keys, with acquire and release latency and Redis commands per cycle,
//     on a client with default options and on one with
//     ContextTimeoutEnabled;
//   - contended shapes, each acquisition under a 5 s deadline: 16 goroutines
//     on one key with a 1 ms critical section (the main one), 64 goroutines
//     over 8 keys with 1 ms, and 16 goroutines on one key with 50 ms, where
//     waiting costs the most. Each reports acquisitions/s, commands per
//     acquisition, wait percentiles, how often the goroutine that just
//     released a key wins it again, the client's peak connections, and
//     overlapping critical sections (which must be 0).
//
// Implementations alternate (A B C D A B C D ...) and the tables show
// per-implementation medians, because a shared machine drifts more over a
// run than the differences being measured: the contended runs alternate
// by round, and each round's uncontended runs are cut into slices (-slices)
// taken in turn, since the load of a shared machine changes by the second.
// The single-goroutine cycles run with the server and the bench pinned to
// one CPU (-pin1, Linux): unpinned, their rate follows where the scheduler
// puts the two processes more than what the implementations cost.
//
//	go run .            # from bench/lockbench; about 10 minutes
//	go run . -quick     # smoke test, a few seconds
package main

import (
	"context"
	crand "crypto/rand"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	goredis "github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/locklint/locklint/analyzer/fix"
	"github.com/redis/go-redis/v9"
)

const (
	ttl          = 2 * time.Second // far longer than any critical section here
	goroutines   = 16
	acquireLimit = 5 * time.Second
)

// shape is one contended workload: goroutine w works on key w%keys.
type shape struct {
	name       string
	goroutines int
	keys       int
	critical   time.Duration
}

// shapes lists the contended workloads; the first is the one the targets
// are stated on.
var shapes = []shape{
	{"16x1 1ms", 16, 1, time.Millisecond},
	{"64x8 1ms", 64, 8, time.Millisecond},
	{"16x1 50ms", 16, 1, 50 * time.Millisecond},
}

// releaseFunc releases one acquisition.
type releaseFunc func(ctx context.Context) error

// impl is one lock implementation. acquire makes a single attempt when ctx
// has no deadline and otherwise retries until it ends.
type impl struct {
	name    string
	acquire func(ctx context.Context, key string) (releaseFunc, error)
}

func main() {
	duration := flag.Duration("duration", 10*time.Second, "length of each contended run")
	uduration := flag.Duration("uduration", 2*time.Second, "length of each uncontended run")
	rounds := flag.Int("rounds", 3, "rounds; each runs every implementation once, in rotating order")
	uslices := flag.Int("slices", 10, "slices each uncontended run is cut into, taken in turn with the other implementations'")
	quick := flag.Bool("quick", false, "smoke test: one short round")
	pin1 := flag.Bool("pin1", true, "run the single-goroutine cycles with the server and the bench on one CPU (see pin_linux.go)")
	flag.Parse()
	if *quick {
		*duration, *uduration, *rounds, *uslices = 400*time.Millisecond, 200*time.Millisecond, 1, 2
	}
	if err := run(*duration, *uduration, *rounds, *uslices, *pin1); err != nil {
		fmt.Fprintln(os.Stderr, "lockbench:", err)
		os.Exit(1)
	}
}

func run(duration, uduration time.Duration, rounds, uslices int, pin1 bool) error {
	srv, err := startRedis()
	if err != nil {
		return err
	}
	defer srv.stop()
	var pin *pinning
	if pin1 {
		// A machine that refuses affinity still measures, unpinned.
		if pin, err = newPinning(os.Getpid(), srv.cmd.Process.Pid); err != nil {
			fmt.Fprintf(os.Stderr, "lockbench: x1 runs not pinned: %v\n", err)
		}
	}
	// A signal must not leave the server behind.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		srv.stop()
		os.Exit(130)
	}()

	// Default options, as most services have them; the library bounds
	// every wait itself on such a client. fast honours context deadlines
	// (ContextTimeoutEnabled), which the library relies on instead where
	// it can: the uncontended cycles run on both.
	client := redis.NewClient(&redis.Options{Addr: srv.addr, PoolSize: 64})
	defer client.Close()
	client.AddHook(sentHook{&sent})
	fast := redis.NewClient(&redis.Options{Addr: srv.addr, PoolSize: 64, ContextTimeoutEnabled: true})
	defer fast.Close()
	fast.AddHook(sentHook{&sent})
	admin := redis.NewClient(&redis.Options{Addr: srv.addr})
	defer admin.Close()
	ctx := context.Background()
	if err := client.Ping(ctx).Err(); err != nil {
		return err
	}
	ver, _ := admin.Info(ctx, "server").Result()
	fmt.Printf("lockbench: %s, redis %s on %s, GOMAXPROCS=%d; %d round(s), uncontended %s, contended %s\n",
		runtime.Version(), field(ver, "redis_version"), srv.addr, runtime.GOMAXPROCS(0), rounds, uduration, duration)
	if pin != nil {
		fmt.Printf("x1 runs: the server and the bench pinned to CPU %d (-pin1=false: not)\n", pin.cpu())
	}

	impls, fastImpls := implementations(client), implementations(fast)
	fastOf := map[string]impl{}
	for _, im := range fastImpls {
		fastOf[im.name] = im
	}
	results := map[string]*agg{}
	for _, im := range impls {
		results[im.name] = &agg{c: make([][]cresult, len(shapes))}
	}
	for r := range rounds {
		// Rotate the order too, so that no implementation always runs
		// right after the same neighbour.
		order := slices.Clone(impls)
		for range r % len(order) {
			order = append(order[1:], order[0])
		}
		// Uncontended: every implementation on both clients, interleaved.
		both := append(slices.Clone(order), fastImpls...)
		for _, g := range []int{1, goroutines} {
			if g == 1 && pin != nil {
				if err := pin.pin(); err != nil {
					fmt.Fprintf(os.Stderr, "lockbench: x1 runs not pinned: %v\n", err)
					pin = nil
				}
			}
			us, err := interleaved(ctx, admin, both, g, uduration, uslices, fmt.Sprintf("r%d", r))
			if pin != nil {
				if err := pin.unpin(); err != nil {
					return err
				}
			}
			if err != nil {
				return err
			}
			for i, u := range us {
				a := results[both[i].name]
				switch {
				case i < len(order) && g == 1:
					a.u1 = append(a.u1, u)
				case i < len(order):
					a.u16 = append(a.u16, u)
				case g == 1:
					a.f1 = append(a.f1, u)
				default:
					a.f16 = append(a.f16, u)
				}
			}
		}
		for _, im := range order {
			a := results[im.name]
			line := fmt.Sprintf("round %d %-12s u1 %6.0f/s  u16 %6.0f/s  fast u1 %6.0f/s  u16 %6.0f/s", r+1, im.name,
				a.u1[len(a.u1)-1].cyclesPerSec, a.u16[len(a.u16)-1].cyclesPerSec, a.f1[len(a.f1)-1].cyclesPerSec, a.f16[len(a.f16)-1].cyclesPerSec)
			for i, sh := range shapes {
				c, err := contended(ctx, admin, client, im, sh, duration, fmt.Sprintf("r%d", r))
				if err != nil {
					return fmt.Errorf("%s contended %s: %w", im.name, sh.name, err)
				}
				a.c[i] = append(a.c[i], c)
				line += fmt.Sprintf("  %s %5.1f/s max %s", sh.name, c.perSec, c.waitMax.Round(time.Millisecond))
			}
			fmt.Println(line)
		}
	}
	overlaps := report(impls, results)
	if overlaps > 0 {
		return fmt.Errorf("%d overlapping critical sections", overlaps)
	}
	return nil
}

func implementations(client *redis.Client) []impl {
	locker := redislock.New(client)
	rs := redsync.New(goredis.NewPool(client))

	fixImpl := func(name string, opts ...fix.Option) impl {
		return impl{name, func(ctx context.Context, key string) (releaseFunc, error) {
			// Waiting is explicit: under a deadline, wait until it.
			o := opts
			if _, ok := ctx.Deadline(); ok {
				o = append(opts[:len(opts):len(opts)], fix.WithWait())
			}
			l, err := fix.Obtain(ctx, client, key, ttl, o...)
			if err != nil {
				return nil, err
			}
			return l.Release, nil
		}}
	}
	return []impl{
		fixImpl("fix"),
		fixImpl("fix+fencing", fix.WithFencing()),
		{"redislock", func(ctx context.Context, key string) (releaseFunc, error) {
			// Same backoff bounds as fix.DefaultBackoff(); redislock does
			// not retry at all by default.
			var retry redislock.RetryStrategy = redislock.NoRetry()
			if _, ok := ctx.Deadline(); ok {
				retry = redislock.ExponentialBackoff(10*time.Millisecond, 500*time.Millisecond)
			}
			l, err := locker.Obtain(ctx, key, ttl, &redislock.Options{RetryStrategy: retry})
			if err != nil {
				return nil, err
			}
			return l.Release, nil
		}},
		{"redsync", func(ctx context.Context, key string) (releaseFunc, error) {
			// redsync's own retry delay (50-250 ms at random); tries are
			// bounded by the context instead of the default 32.
			tries := 1
			if _, ok := ctx.Deadline(); ok {
				tries = math.MaxInt32
			}
			m := rs.NewMutex(key, redsync.WithExpiry(ttl), redsync.WithTries(tries))
			if err := m.LockContext(ctx); err != nil {
				return nil, err
			}
			return func(ctx context.Context) error {
				ok, err := m.UnlockContext(ctx)
				if err == nil && !ok {
					err = errors.New("redsync: not unlocked")
				}
				return err
			}, nil
		}},
		floorImpl(client, "floor", false),
		floorImpl(client, "floor+fencing", true),
	}
}

var (
	//go:embed scripts/release.lua
	floorReleaseLua string
	//go:embed scripts/fenced.lua
	floorFencedLua string

	floorRelease = redis.NewScript(floorReleaseLua)
	floorFenced  = redis.NewScript(floorFencedLua)
)

// floorImpl is the least a lock can do, written directly on go-redis: SET
// NX PX (with fenced, one script doing that and the fence's INCR, the
// counter next to the key) and a compare-and-delete script to release.
func floorImpl(client *redis.Client, name string, fenced bool) impl {
	return impl{name, func(ctx context.Context, key string) (releaseFunc, error) {
		token := crand.Text()
		_, waiting := ctx.Deadline()
		for attempt := 1; ; attempt++ {
			var ok bool
			var err error
			if fenced {
				var fence int64
				fence, err = floorFenced.Run(ctx, client, []string{key, key + ":fence"}, token, ttl.Milliseconds()).Int64()
				ok = fence > 0
			} else {
				ok, err = client.SetNX(ctx, key, token, ttl).Result()
			}
			if err != nil {
				return nil, err
			}
			if ok {
				return func(ctx context.Context) error {
					n, err := floorRelease.Run(ctx, client, []string{key}, token).Int64()
					if err == nil && n != 1 {
						err = fmt.Errorf("%s: not held", name)
					}
					return err
				}, nil
			}
			if !waiting {
				return nil, fmt.Errorf("%s: not obtained", name)
			}
			// Full-jitter exponential backoff like fix.DefaultBackoff().
			limit := min(10*time.Millisecond<<min(attempt-1, 10), 500*time.Millisecond)
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(rand.N(limit) + 1):
			}
		}
	}}
}

// sent counts commands the lock client sends. INFO commandstats also counts
// the commands a script runs inside the server, so the two differ: sent is
// round trips, commandstats is server work.
var sent atomic.Int64

type sentHook struct{ n *atomic.Int64 }

func (h sentHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h sentHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmd)
	}
}

func (h sentHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.n.Add(int64(len(cmds)))
		return next(ctx, cmds)
	}
}

type uresult struct {
	rtPerCycle     float64
	cyclesPerSec   float64
	acqP50, acqP99 time.Duration
	relP50, relP99 time.Duration
	cmdsPerCycle   float64
	cycles         int
}

// usample is one uncontended slice's raw figures.
type usample struct {
	elapsed    time.Duration
	acq, rel   []time.Duration
	cmds, sent int64
}

// uncontended runs g goroutines, each acquiring and releasing its own key
// with single attempts, for d.
func uncontended(ctx context.Context, admin *redis.Client, im impl, g int, d time.Duration, tag string) (usample, error) {
	if err := admin.FlushAll(ctx).Err(); err != nil {
		return usample{}, err
	}
	// Warm up connections and script caches outside the measurement.
	for i := range g * 4 {
		rel, err := im.acquire(ctx, fmt.Sprintf("warm:{%d}", i))
		if err != nil {
			return usample{}, err
		}
		if err := rel(ctx); err != nil {
			return usample{}, err
		}
	}
	before, err := commandCalls(ctx, admin)
	if err != nil {
		return usample{}, err
	}
	sentBefore := sent.Load()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		acq, rel []time.Duration
		errs     atomic.Int64
		firstErr atomic.Value
	)
	start := time.Now()
	end := start.Add(d)
	for w := range g {
		wg.Go(func() {
			key := fmt.Sprintf("bench:%s:%s:{u%d}", tag, im.name, w)
			var la, lr []time.Duration
			for time.Now().Before(end) {
				t0 := time.Now()
				release, err := im.acquire(ctx, key)
				t1 := time.Now()
				if err != nil {
					errs.Add(1)
					firstErr.CompareAndSwap(nil, err)
					continue
				}
				err = release(ctx)
				t2 := time.Now()
				if err != nil {
					errs.Add(1)
					firstErr.CompareAndSwap(nil, err)
					continue
				}
				la = append(la, t1.Sub(t0))
				lr = append(lr, t2.Sub(t1))
			}
			mu.Lock()
			acq = append(acq, la...)
			rel = append(rel, lr...)
			mu.Unlock()
		})
	}
	wg.Wait()
	u := usample{elapsed: time.Since(start), acq: acq, rel: rel, sent: sent.Load() - sentBefore}
	after, err := commandCalls(ctx, admin)
	if err != nil {
		return usample{}, err
	}
	u.cmds = after - before
	if n := errs.Load(); n > 0 {
		return usample{}, fmt.Errorf("%d failed cycles on distinct keys, first: %v", n, firstErr.Load())
	}
	return u, nil
}

// interleaved runs every implementation in ims uncontended with g
// goroutines for d in all, in n slices taken in turn (A B C ... A B C
// ...), so that all of them see the same moments of a shared machine,
// whose load changes by the second. A result's cycles/s is the median of
// its slices' rates; latencies and commands are over all its slices.
func interleaved(ctx context.Context, admin *redis.Client, ims []impl, g int, d time.Duration, n int, tag string) ([]uresult, error) {
	samples := make([][]usample, len(ims))
	for k := range n {
		for j := range ims {
			i := (j + k) % len(ims)
			u, err := uncontended(ctx, admin, ims[i], g, d/time.Duration(n), tag)
			if err != nil {
				return nil, fmt.Errorf("%s uncontended x%d: %w", ims[i].name, g, err)
			}
			samples[i] = append(samples[i], u)
		}
	}
	out := make([]uresult, len(ims))
	for i, ss := range samples {
		var acq, rel []time.Duration
		var cmds, sent int64
		rates := make([]float64, len(ss))
		for k, u := range ss {
			acq, rel = append(acq, u.acq...), append(rel, u.rel...)
			cmds, sent = cmds+u.cmds, sent+u.sent
			rates[k] = float64(len(u.acq)) / u.elapsed.Seconds()
		}
		r := uresult{cycles: len(acq), cyclesPerSec: median(rates)}
		r.acqP50, r.acqP99 = pct(acq, 50), pct(acq, 99)
		r.relP50, r.relP99 = pct(rel, 50), pct(rel, 99)
		if len(acq) > 0 {
			r.cmdsPerCycle = float64(cmds) / float64(len(acq))
			r.rtPerCycle = float64(sent) / float64(len(acq))
		}
		out[i] = r
	}
	return out, nil
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

type cresult struct {
	acquisitions              int
	perSec                    float64
	cmdsPerAcq                float64
	rtPerAcq                  float64
	waitP50, waitP99, waitMax time.Duration
	lastReleaserShare         float64
	peakConns                 int
	overlaps                  int64
	timeouts                  int64
}

// contended runs sh for d: each goroutine acquires its key with a 5 s
// deadline, holds it for the critical section and releases it. Attempts
// cut short by the end of the run count neither as waits nor as timeouts.
func contended(ctx context.Context, admin, client *redis.Client, im impl, sh shape, d time.Duration, tag string) (cresult, error) {
	if err := admin.FlushAll(ctx).Err(); err != nil {
		return cresult{}, err
	}
	type keyState struct {
		name         string
		inCS         atomic.Int64
		lastReleaser atomic.Int64
	}
	keys := make([]*keyState, sh.keys)
	for i := range keys {
		keys[i] = &keyState{name: fmt.Sprintf("bench:%s:%s:%s:{hot%d}", tag, im.name, strings.ReplaceAll(sh.name, " ", ""), i)}
		keys[i].lastReleaser.Store(-1)
	}
	before, err := commandCalls(ctx, admin)
	if err != nil {
		return cresult{}, err
	}
	sentBefore := sent.Load()
	runCtx, stop := context.WithTimeout(ctx, d)
	defer stop()
	var (
		wg         sync.WaitGroup
		mu         sync.Mutex
		waits      []time.Duration
		overlaps   atomic.Int64
		timeouts   atomic.Int64
		sameWinner atomic.Int64
		relErrs    atomic.Int64
		peakConns  atomic.Int64
	)
	// The connections in use, sampled: what waiting costs in sockets
	// (subscriptions included).
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			st := client.PoolStats()
			if n := int64(st.TotalConns-st.IdleConns) + int64(st.PubSubStats.Active); n > peakConns.Load() {
				peakConns.Store(n)
			}
			select {
			case <-runCtx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	for w := range sh.goroutines {
		k := keys[w%sh.keys]
		wg.Go(func() {
			var local []time.Duration
			for runCtx.Err() == nil {
				actx, cancel := context.WithTimeout(runCtx, acquireLimit)
				t0 := time.Now()
				release, err := im.acquire(actx, k.name)
				wait := time.Since(t0)
				cancel()
				if err != nil {
					if runCtx.Err() == nil {
						timeouts.Add(1)
					}
					continue
				}
				if n := k.inCS.Add(1); n > 1 {
					overlaps.Add(1)
				}
				if k.lastReleaser.Load() == int64(w) {
					sameWinner.Add(1)
				}
				local = append(local, wait)
				time.Sleep(sh.critical)
				k.inCS.Add(-1)
				k.lastReleaser.Store(int64(w))
				// Release outlives the run's end, so that no lock is left
				// behind for the next implementation's run.
				if err := release(context.WithoutCancel(runCtx)); err != nil {
					relErrs.Add(1)
				}
			}
			mu.Lock()
			waits = append(waits, local...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	<-sampled
	after, err := commandCalls(ctx, admin)
	if err != nil {
		return cresult{}, err
	}
	if n := relErrs.Load(); n > 0 {
		return cresult{}, fmt.Errorf("%d releases failed", n)
	}
	r := cresult{
		acquisitions: len(waits),
		perSec:       float64(len(waits)) / elapsed.Seconds(),
		waitP50:      pct(waits, 50),
		waitP99:      pct(waits, 99),
		waitMax:      pct(waits, 100),
		peakConns:    int(peakConns.Load()),
		overlaps:     overlaps.Load(),
		timeouts:     timeouts.Load(),
	}
	if len(waits) > 0 {
		r.cmdsPerAcq = float64(after-before) / float64(len(waits))
		r.rtPerAcq = float64(sent.Load()-sentBefore) / float64(len(waits))
		r.lastReleaserShare = float64(sameWinner.Load()) / float64(len(waits))
	}
	return r, nil
}

type agg struct {
	u1, u16 []uresult   // default client
	f1, f16 []uresult   // ContextTimeoutEnabled
	c       [][]cresult // per shape
}

func report(impls []impl, res map[string]*agg) (overlaps int64) {
	// um and cm give an implementation's median of a figure of its
	// uncontended runs and of its runs of shape i.
	um := func(name string, sel func(*agg) []uresult, f func(uresult) float64) float64 {
		return median(mapf(sel(res[name]), f))
	}
	cm := func(name string, i int, f func(cresult) float64) float64 {
		return median(mapf(res[name].c[i], f))
	}
	u1 := func(a *agg) []uresult { return a.u1 }
	u16 := func(a *agg) []uresult { return a.u16 }
	f1 := func(a *agg) []uresult { return a.f1 }
	f16 := func(a *agg) []uresult { return a.f16 }
	cps := func(u uresult) float64 { return u.cyclesPerSec }
	dur := func(v float64) string { return time.Duration(v).Round(time.Microsecond).String() }
	durMS := func(v float64) string { return time.Duration(v).Round(100 * time.Microsecond).String() }
	d := func(f func(uresult) time.Duration) func(uresult) float64 {
		return func(u uresult) float64 { return float64(f(u)) }
	}

	for _, cl := range []struct {
		name     string
		one, six func(*agg) []uresult
	}{{"default client", u1, u16}, {"ContextTimeoutEnabled", f1, f16}} {
		tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "uncontended, %s\tx1 cyc/s\tvs rl\tvs floor\tvs ffloor\tx16 cyc/s\tvs rl\tvs floor\tvs ffloor\tacq p50\tacq p99\trel p50\trel p99\tcmd/cyc\trt/cyc\t\n", cl.name)
		for _, im := range impls {
			n := im.name
			fmt.Fprintf(tw, "%s\t%.0f\t%.2f\t%.2f\t%.2f\t%.0f\t%.2f\t%.2f\t%.2f\t%s\t%s\t%s\t%s\t%.2f\t%.2f\t\n",
				n,
				um(n, cl.one, cps), um(n, cl.one, cps)/um("redislock", cl.one, cps), um(n, cl.one, cps)/um("floor", cl.one, cps),
				um(n, cl.one, cps)/um("floor+fencing", cl.one, cps),
				um(n, cl.six, cps), um(n, cl.six, cps)/um("redislock", cl.six, cps), um(n, cl.six, cps)/um("floor", cl.six, cps),
				um(n, cl.six, cps)/um("floor+fencing", cl.six, cps),
				dur(um(n, cl.one, d(func(u uresult) time.Duration { return u.acqP50 }))),
				dur(um(n, cl.one, d(func(u uresult) time.Duration { return u.acqP99 }))),
				dur(um(n, cl.one, d(func(u uresult) time.Duration { return u.relP50 }))),
				dur(um(n, cl.one, d(func(u uresult) time.Duration { return u.relP99 }))),
				um(n, cl.one, func(u uresult) float64 { return u.cmdsPerCycle }),
				um(n, cl.one, func(u uresult) float64 { return u.rtPerCycle }))
		}
		tw.Flush()
		fmt.Println()
	}
	fmt.Println("ffloor = floor+fencing, SET NX PX and the fence's INCR in one script")
	fmt.Println("latencies are the x1 run's (pinned to one CPU unless -pin1=false); cmd = INFO commandstats calls (includes commands run inside scripts); rt = commands the client sent")

	perSec := func(c cresult) float64 { return c.perSec }
	cmds := func(c cresult) float64 { return c.cmdsPerAcq }
	waitMax := func(c cresult) float64 { return float64(c.waitMax) }
	share := func(c cresult) float64 { return c.lastReleaserShare }
	for i, sh := range shapes {
		fmt.Println()
		tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "contended %s\tacq/s\tvs rl\tcmd/acq\trt/acq\twait p50\twait p99\twait max\tvs rl\tlast-rel\tconns\toverlap\ttimeouts\t\n", sh.name)
		for _, im := range impls {
			n := im.name
			var ov, to int64
			for _, c := range res[n].c[i] {
				ov += c.overlaps
				to += c.timeouts
			}
			overlaps += ov
			fmt.Fprintf(tw, "%s\t%.1f\t%.2f\t%.2f\t%.2f\t%s\t%s\t%s\t%.2f\t%.0f%%\t%.0f\t%d\t%d\t\n",
				n,
				cm(n, i, perSec), cm(n, i, perSec)/cm("redislock", i, perSec),
				cm(n, i, cmds), cm(n, i, func(c cresult) float64 { return c.rtPerAcq }),
				durMS(cm(n, i, func(c cresult) float64 { return float64(c.waitP50) })),
				durMS(cm(n, i, func(c cresult) float64 { return float64(c.waitP99) })),
				durMS(cm(n, i, waitMax)), cm(n, i, waitMax)/cm("redislock", i, waitMax),
				100*cm(n, i, share),
				cm(n, i, func(c cresult) float64 { return float64(c.peakConns) }),
				ov, to)
		}
		tw.Flush()
		fmt.Printf("%d goroutines over %d key(s), %s critical section, 5 s acquire deadline; conns = peak connections in use (pub/sub included); medians over rounds\n",
			sh.goroutines, sh.keys, sh.critical)
	}

	// Targets, each stated against the figure it is measured on.
	check := func(ok bool) string {
		if ok {
			return "met"
		}
		return "MISSED"
	}
	fmt.Println()
	fmt.Println("targets:")
	for _, g := range []struct {
		label      string
		sel, plain func(*agg) []uresult
	}{{"x1", f1, u1}, {"x16", f16, u16}} {
		rl, fl, ffl := um("redislock", g.sel, cps), um("floor", g.sel, cps), um("floor+fencing", g.sel, cps)
		r := um("fix", g.sel, cps) / rl
		fmt.Printf("  uncontended %s fix >= 1.00x redislock (ContextTimeoutEnabled): %.2fx %s\n", g.label, r, check(r >= 1.0))
		r = um("fix", g.sel, cps) / fl
		fmt.Printf("  uncontended %s fix >= 0.95x floor (ContextTimeoutEnabled): %.2fx %s\n", g.label, r, check(r >= 0.95))
		// A fenced lock is held to the least a fenced lock can do, not
		// to redislock, which issues no fence.
		r = um("fix+fencing", g.sel, cps) / ffl
		fmt.Printf("  uncontended %s fix+fencing >= 0.97x floor+fencing (ContextTimeoutEnabled): %.2fx %s\n", g.label, r, check(r >= 0.97))
		fmt.Printf("  (default client, where each release runs on a goroutine to keep its bound: fix %.2fx redislock, %.2fx floor; fix+fencing %.2fx floor+fencing; with ContextTimeoutEnabled fix+fencing is %.2fx redislock)\n",
			um("fix", g.plain, cps)/um("redislock", g.plain, cps), um("fix", g.plain, cps)/um("floor", g.plain, cps),
			um("fix+fencing", g.plain, cps)/um("floor+fencing", g.plain, cps), um("fix+fencing", g.sel, cps)/rl)
	}
	const main = 0
	for _, n := range []string{"fix", "fix+fencing"} {
		label := fmt.Sprintf("contended %s %s", shapes[main].name, n)
		r := cm(n, main, perSec) / cm("redislock", main, perSec)
		fmt.Printf("  %s acquisitions/s >= 0.95x redislock: %.2fx %s\n", label, r, check(r >= 0.95))
		c, rc := cm(n, main, cmds), cm("redislock", main, cmds)
		fmt.Printf("  %s commands/acquisition <= redislock's (%.2f): %.2f %s\n", label, rc, c, check(c <= rc))
		r = cm(n, main, waitMax) / cm("redislock", main, waitMax)
		fmt.Printf("  %s wait max <= 0.5x redislock: %.2fx %s\n", label, r, check(r <= 0.5))
		s := cm(n, main, share)
		fmt.Printf("  %s last-releaser share <= 40%%: %.0f%% %s\n", label, 100*s, check(s <= 0.4))
	}
	fmt.Printf("  overlapping critical sections, all implementations and shapes: %d %s\n", overlaps, check(overlaps == 0))
	return overlaps
}

func mapf[T any](xs []T, f func(T) float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func pct(xs []time.Duration, p int) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(min(i, len(s))-1, 0)]
}

// commandCalls sums the calls of every command in INFO commandstats except
// INFO itself, whose own calls would otherwise count as lock traffic.
func commandCalls(ctx context.Context, admin *redis.Client) (int64, error) {
	s, err := admin.Info(ctx, "commandstats").Result()
	if err != nil {
		return 0, err
	}
	var total int64
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimSpace(line)
		name, rest, ok := strings.Cut(line, ":")
		if !ok || !strings.HasPrefix(name, "cmdstat_") || name == "cmdstat_info" || name == "cmdstat_flushall" {
			continue
		}
		for kv := range strings.SplitSeq(rest, ",") {
			if v, ok := strings.CutPrefix(kv, "calls="); ok {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return 0, fmt.Errorf("commandstats %q: %w", line, err)
				}
				total += n
			}
		}
	}
	return total, nil
}

func field(info, name string) string {
	for line := range strings.SplitSeq(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+":"); ok {
			return v
		}
	}
	return "?"
}

type server struct {
	addr string
	cmd  *exec.Cmd
	dir  string
	once sync.Once
}

// startRedis runs redis-server without persistence on a free loopback
// port, retrying with another port if one is taken in between.
func startRedis() (*server, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, fmt.Errorf("redis-server is required: %w", err)
	}
	dir, err := os.MkdirTemp("", "lockbench")
	if err != nil {
		return nil, err
	}
	var lastErr error
	for range 5 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		s := &server{addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), dir: dir}
		s.cmd = exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
			"--save", "", "--appendonly", "no", "--dir", dir)
		if err := s.cmd.Start(); err != nil {
			return nil, err
		}
		if lastErr = waitPing(s.addr); lastErr == nil {
			return s, nil
		}
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	}
	os.RemoveAll(dir)
	return nil, fmt.Errorf("redis-server did not start: %w", lastErr)
}

func (s *server) stop() {
	s.once.Do(func() {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
		os.RemoveAll(s.dir)
	})
}

func waitPing(addr string) error {
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer c.Close()
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
	}
	return err
}
