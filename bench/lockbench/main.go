// Command lockbench compares analyzer/fix with bsm/redislock, redsync and a
// hand-written floor (SET NX PX plus a compare-and-delete EVALSHA) against
// one real redis-server on loopback, in a single run:
//
//   - uncontended acquire+release cycles/s, 1 and 16 goroutines on distinct
//     keys, with acquire and release latency and Redis commands per cycle;
//   - contended: 16 goroutines on one key with a 1 ms critical section,
//     reporting acquisitions/s, commands per acquisition, wait percentiles,
//     how often the goroutine that just released wins again, and overlapping
//     critical sections (which must be 0).
//
// Implementations alternate in rounds (A B C D A B C D ...) and the table
// shows per-implementation medians, because a shared machine drifts more
// over a run than the differences being measured.
//
//	go run .            # from bench/lockbench; about 3 minutes
//	go run . -quick     # smoke test, a few seconds
package main

import (
	"context"
	crand "crypto/rand"
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
	ttl            = 2 * time.Second // far longer than any critical section here
	goroutines     = 16
	criticalPeriod = time.Millisecond
	acquireLimit   = 5 * time.Second
)

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
	quick := flag.Bool("quick", false, "smoke test: one short round")
	flag.Parse()
	if *quick {
		*duration, *uduration, *rounds = time.Second, 300*time.Millisecond, 1
	}
	if err := run(*duration, *uduration, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "lockbench:", err)
		os.Exit(1)
	}
}

func run(duration, uduration time.Duration, rounds int) error {
	srv, err := startRedis()
	if err != nil {
		return err
	}
	defer srv.stop()
	// A signal must not leave the server behind.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		srv.stop()
		os.Exit(130)
	}()

	client := redis.NewClient(&redis.Options{Addr: srv.addr, PoolSize: 64})
	defer client.Close()
	client.AddHook(sentHook{&sent})
	admin := redis.NewClient(&redis.Options{Addr: srv.addr})
	defer admin.Close()
	ctx := context.Background()
	if err := client.Ping(ctx).Err(); err != nil {
		return err
	}
	ver, _ := admin.Info(ctx, "server").Result()
	fmt.Printf("lockbench: %s, redis %s on %s, GOMAXPROCS=%d; %d round(s), uncontended %s, contended %s\n",
		runtime.Version(), field(ver, "redis_version"), srv.addr, runtime.GOMAXPROCS(0), rounds, uduration, duration)

	impls := implementations(client)
	results := map[string]*agg{}
	for _, im := range impls {
		results[im.name] = &agg{}
	}
	for r := range rounds {
		// Rotate the order too, so that no implementation always runs
		// right after the same neighbour.
		order := slices.Clone(impls)
		for range r % len(order) {
			order = append(order[1:], order[0])
		}
		for _, im := range order {
			a := results[im.name]
			for _, g := range []int{1, goroutines} {
				u, err := uncontended(ctx, admin, im, g, uduration, fmt.Sprintf("r%d", r))
				if err != nil {
					return fmt.Errorf("%s uncontended x%d: %w", im.name, g, err)
				}
				if g == 1 {
					a.u1 = append(a.u1, u)
				} else {
					a.u16 = append(a.u16, u)
				}
			}
			c, err := contended(ctx, admin, im, duration, fmt.Sprintf("r%d", r))
			if err != nil {
				return fmt.Errorf("%s contended: %w", im.name, err)
			}
			a.c = append(a.c, c)
			fmt.Printf("round %d %-14s u1 %8.0f/s  u16 %8.0f/s  contended %6.1f/s  wait max %s\n",
				r+1, im.name, a.u1[len(a.u1)-1].cyclesPerSec, a.u16[len(a.u16)-1].cyclesPerSec, c.perSec, c.waitMax.Round(time.Millisecond))
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
	floorRelease := redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

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
		{"floor", func(ctx context.Context, key string) (releaseFunc, error) {
			token := crand.Text()
			_, waiting := ctx.Deadline()
			for attempt := 1; ; attempt++ {
				ok, err := client.SetNX(ctx, key, token, ttl).Result()
				if err != nil {
					return nil, err
				}
				if ok {
					return func(ctx context.Context) error {
						n, err := floorRelease.Run(ctx, client, []string{key}, token).Int64()
						if err == nil && n != 1 {
							err = errors.New("floor: not held")
						}
						return err
					}, nil
				}
				if !waiting {
					return nil, errors.New("floor: not obtained")
				}
				// Full-jitter exponential backoff like fix.DefaultBackoff().
				limit := min(10*time.Millisecond<<min(attempt-1, 10), 500*time.Millisecond)
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(rand.N(limit) + 1):
				}
			}
		}},
	}
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
	rtPerCycle         float64
	cyclesPerSec       float64
	acqP50, acqP99     time.Duration
	relP50, relP99     time.Duration
	cmdsPerCycle       float64
	cycles, errorCount int
}

// uncontended runs g goroutines, each acquiring and releasing its own key
// with single attempts, for d.
func uncontended(ctx context.Context, admin *redis.Client, im impl, g int, d time.Duration, tag string) (uresult, error) {
	if err := admin.FlushAll(ctx).Err(); err != nil {
		return uresult{}, err
	}
	// Warm up connections and script caches outside the measurement.
	for i := range g * 4 {
		rel, err := im.acquire(ctx, fmt.Sprintf("warm:{%d}", i))
		if err != nil {
			return uresult{}, err
		}
		if err := rel(ctx); err != nil {
			return uresult{}, err
		}
	}
	before, err := commandCalls(ctx, admin)
	if err != nil {
		return uresult{}, err
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
	elapsed := time.Since(start)
	after, err := commandCalls(ctx, admin)
	if err != nil {
		return uresult{}, err
	}
	if n := errs.Load(); n > 0 {
		return uresult{}, fmt.Errorf("%d failed cycles on distinct keys, first: %v", n, firstErr.Load())
	}
	r := uresult{cycles: len(acq), cyclesPerSec: float64(len(acq)) / elapsed.Seconds()}
	r.acqP50, r.acqP99 = pct(acq, 50), pct(acq, 99)
	r.relP50, r.relP99 = pct(rel, 50), pct(rel, 99)
	if len(acq) > 0 {
		r.cmdsPerCycle = float64(after-before) / float64(len(acq))
		r.rtPerCycle = float64(sent.Load()-sentBefore) / float64(len(acq))
	}
	return r, nil
}

type cresult struct {
	acquisitions              int
	perSec                    float64
	cmdsPerAcq                float64
	rtPerAcq                  float64
	waitP50, waitP99, waitMax time.Duration
	lastReleaserShare         float64
	overlaps                  int64
	timeouts                  int64
}

// contended runs 16 goroutines on one key for d: each acquires with a 5 s
// deadline, holds the lock for 1 ms and releases. Attempts cut short by the
// end of the run count neither as waits nor as timeouts.
func contended(ctx context.Context, admin *redis.Client, im impl, d time.Duration, tag string) (cresult, error) {
	if err := admin.FlushAll(ctx).Err(); err != nil {
		return cresult{}, err
	}
	key := fmt.Sprintf("bench:%s:%s:{hot}", tag, im.name)
	before, err := commandCalls(ctx, admin)
	if err != nil {
		return cresult{}, err
	}
	sentBefore := sent.Load()
	runCtx, stop := context.WithTimeout(ctx, d)
	defer stop()
	var (
		wg           sync.WaitGroup
		mu           sync.Mutex
		waits        []time.Duration
		inCS         atomic.Int64
		overlaps     atomic.Int64
		timeouts     atomic.Int64
		lastReleaser atomic.Int64
		sameWinner   atomic.Int64
		relErrs      atomic.Int64
	)
	lastReleaser.Store(-1)
	start := time.Now()
	for w := range goroutines {
		wg.Go(func() {
			var local []time.Duration
			for runCtx.Err() == nil {
				actx, cancel := context.WithTimeout(runCtx, acquireLimit)
				t0 := time.Now()
				release, err := im.acquire(actx, key)
				wait := time.Since(t0)
				cancel()
				if err != nil {
					if runCtx.Err() == nil {
						timeouts.Add(1)
					}
					continue
				}
				if n := inCS.Add(1); n > 1 {
					overlaps.Add(1)
				}
				if lastReleaser.Load() == int64(w) {
					sameWinner.Add(1)
				}
				local = append(local, wait)
				time.Sleep(criticalPeriod)
				inCS.Add(-1)
				lastReleaser.Store(int64(w))
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
	u1, u16 []uresult
	c       []cresult
}

func report(impls []impl, res map[string]*agg) (overlaps int64) {
	med := func(xs []float64) float64 {
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
	mf := func(name string, f func(*agg) []float64) float64 { return med(f(res[name])) }
	u1 := func(a *agg) []float64 { return mapf(a.u1, func(u uresult) float64 { return u.cyclesPerSec }) }
	u16 := func(a *agg) []float64 { return mapf(a.u16, func(u uresult) float64 { return u.cyclesPerSec }) }
	ud := func(sel func(*agg) []uresult, f func(uresult) time.Duration) func(*agg) []float64 {
		return func(a *agg) []float64 { return mapf(sel(a), func(u uresult) float64 { return float64(f(u)) }) }
	}
	cf := func(f func(cresult) float64) func(*agg) []float64 {
		return func(a *agg) []float64 { return mapf(a.c, f) }
	}
	dur := func(v float64) string { return time.Duration(v).Round(time.Microsecond).String() }
	durMS := func(v float64) string { return time.Duration(v).Round(100 * time.Microsecond).String() }
	sel1 := func(a *agg) []uresult { return a.u1 }

	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "impl\tx1 cyc/s\tvs rl\tvs floor\tx16 cyc/s\tvs rl\tvs floor\tacq p50\tacq p99\trel p50\trel p99\tcmd/cyc\trt/cyc\t|\tcont acq/s\tcmd/acq\trt/acq\twait p50\twait p99\twait max\tvs rl\tlast-rel\toverlap\ttimeouts\t")
	for _, im := range impls {
		n := im.name
		a := res[n]
		var ov, to int64
		for _, c := range a.c {
			ov += c.overlaps
			to += c.timeouts
		}
		overlaps += ov
		fmt.Fprintf(tw, "%s\t%.0f\t%.2f\t%.2f\t%.0f\t%.2f\t%.2f\t%s\t%s\t%s\t%s\t%.2f\t%.2f\t|\t%.1f\t%.2f\t%.2f\t%s\t%s\t%s\t%.2f\t%.0f%%\t%d\t%d\t\n",
			n,
			mf(n, u1), mf(n, u1)/mf("redislock", u1), mf(n, u1)/mf("floor", u1),
			mf(n, u16), mf(n, u16)/mf("redislock", u16), mf(n, u16)/mf("floor", u16),
			dur(mf(n, ud(sel1, func(u uresult) time.Duration { return u.acqP50 }))),
			dur(mf(n, ud(sel1, func(u uresult) time.Duration { return u.acqP99 }))),
			dur(mf(n, ud(sel1, func(u uresult) time.Duration { return u.relP50 }))),
			dur(mf(n, ud(sel1, func(u uresult) time.Duration { return u.relP99 }))),
			mf(n, func(a *agg) []float64 { return mapf(a.u1, func(u uresult) float64 { return u.cmdsPerCycle }) }),
			mf(n, func(a *agg) []float64 { return mapf(a.u1, func(u uresult) float64 { return u.rtPerCycle }) }),
			mf(n, cf(func(c cresult) float64 { return c.perSec })),
			mf(n, cf(func(c cresult) float64 { return c.cmdsPerAcq })),
			mf(n, cf(func(c cresult) float64 { return c.rtPerAcq })),
			durMS(mf(n, cf(func(c cresult) float64 { return float64(c.waitP50) }))),
			durMS(mf(n, cf(func(c cresult) float64 { return float64(c.waitP99) }))),
			durMS(mf(n, cf(func(c cresult) float64 { return float64(c.waitMax) }))),
			mf(n, cf(func(c cresult) float64 { return float64(c.waitMax) }))/mf("redislock", cf(func(c cresult) float64 { return float64(c.waitMax) })),
			100*mf(n, cf(func(c cresult) float64 { return c.lastReleaserShare })),
			ov, to)
	}
	tw.Flush()
	fmt.Println("cmd = INFO commandstats calls (includes commands run inside scripts); rt = commands the client sent")
	fmt.Println("latencies are the x1 run's; contended columns: 16 goroutines, one key, 1 ms critical section, 5 s acquire deadline; medians over rounds")

	// Targets, each stated against the figure it is measured on.
	check := func(ok bool) string {
		if ok {
			return "met"
		}
		return "MISSED"
	}
	rl, fl := res["redislock"], res["floor"]
	fmt.Println("targets:")
	for _, g := range []struct {
		label string
		f     func(*agg) []float64
	}{{"x1", u1}, {"x16", u16}} {
		r := mf("fix+fencing", g.f) / med(g.f(rl))
		fmt.Printf("  uncontended %s fix+fencing >= 1.00x redislock: %.2fx %s\n", g.label, r, check(r >= 1.0))
		r = mf("fix", g.f) / med(g.f(fl))
		fmt.Printf("  uncontended %s fix >= 0.95x floor: %.2fx %s\n", g.label, r, check(r >= 0.95))
	}
	waitMax := cf(func(c cresult) float64 { return float64(c.waitMax) })
	share := cf(func(c cresult) float64 { return c.lastReleaserShare })
	cmds := cf(func(c cresult) float64 { return c.cmdsPerAcq })
	for _, n := range []string{"fix", "fix+fencing"} {
		r := mf(n, waitMax) / med(waitMax(rl))
		fmt.Printf("  contended %s wait max <= 0.5x redislock: %.2fx %s\n", n, r, check(r <= 0.5))
		s := mf(n, share)
		fmt.Printf("  contended %s last-releaser share <= 60%%: %.0f%% %s\n", n, 100*s, check(s <= 0.6))
		c, rc := mf(n, cmds), med(cmds(rl))
		fmt.Printf("  contended %s commands/acquisition <= redislock's (%.2f): %.2f %s\n", n, rc, c, check(c <= rc))
	}
	fmt.Printf("  overlapping critical sections, all implementations: %d %s\n", overlaps, check(overlaps == 0))
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
