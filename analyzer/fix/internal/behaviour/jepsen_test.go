package behaviour_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/faulty"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/history"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/locklint/locklint/analyzer/fix/lock"
	"github.com/redis/go-redis/v9"
)

var (
	soak    = flag.Duration("soak", 0, "run the randomized checker with fresh seeds for this long per client kind and server, instead of the fixed seeds")
	histOut = flag.String("history", "", "write the history of a randomized run that fails the checker to this file")
)

// held is what a lock under test gives its holder.
type held interface {
	Token() string
	Fence() int64
	Until() time.Time
	Release(ctx context.Context) error
}

// locker takes a lock on key: the library, or a deliberately broken lock
// that proves the checker can fail.
type locker struct {
	name   string
	obtain func(ctx context.Context, c lock.Client, key string, cfg checkConfig, watchdog bool) (held, error)
	// do, when set, runs a section through the library's Do.
	do func(ctx context.Context, c lock.Client, op *history.Op, hold time.Duration, cfg checkConfig)
}

// hold obtains op.Key, holds it for hold and releases it, filling op.
func (lk locker) hold(ctx context.Context, c lock.Client, op *history.Op, hold time.Duration, watchdog bool, cfg checkConfig) {
	l, err := lk.obtain(ctx, c, op.Key, cfg, watchdog)
	op.End, op.Err = time.Now(), err
	if err != nil {
		return
	}
	op.Token, op.Fence = l.Token(), l.Fence()
	var ended func() time.Time
	if lc, ok := l.(interface{ Context() context.Context }); ok {
		ended = endOf(lc.Context())
	}
	time.Sleep(hold)
	op.ReleaseStart = time.Now()
	// The lease as last renewed, or the lock's Context if it ended first.
	op.Until = l.Until()
	if ended != nil {
		if at := ended(); at.Before(op.Until) {
			op.Until = at
		}
	}
	op.ReleaseErr = l.Release(ctx)
	op.ReleaseEnd = time.Now()
}

// endOf returns a function that tells when ctx ended (far in the future if
// it has not), and stops watching.
func endOf(ctx context.Context) func() time.Time {
	var mu sync.Mutex
	var at time.Time
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		at = time.Now()
		mu.Unlock()
	})
	return func() time.Time {
		stop()
		mu.Lock()
		defer mu.Unlock()
		if at.IsZero() {
			return time.Now().Add(time.Hour)
		}
		return at
	}
}

// checkConfig is one randomized run.
type checkConfig struct {
	seed                  uint64
	duration              time.Duration
	procs, workers, keys  int
	ttl, maxWait, release time.Duration
	faultRate             float64       // per command
	maxStall              time.Duration // of a stalled command
	pauseEvery            int           // one section in this many pauses past the lease
}

func defaultCheck(seed uint64) checkConfig {
	return checkConfig{
		seed: seed, duration: 2500 * time.Millisecond, procs: 3, workers: 4, keys: 3,
		ttl: 1200 * time.Millisecond, maxWait: 400 * time.Millisecond, release: 250 * time.Millisecond,
		faultRate: 0.08, maxStall: 600 * time.Millisecond, pauseEvery: 8,
	}
}

var libraryLock = locker{
	name: "library",
	obtain: func(ctx context.Context, c lock.Client, key string, cfg checkConfig, watchdog bool) (held, error) {
		opts := []lock.Option{lock.WithFencing(), lock.WithMaxWait(cfg.maxWait), lock.WithReleaseTimeout(cfg.release)}
		if watchdog {
			opts = append(opts, lock.WithWatchdog(time.Minute))
		}
		return lock.Obtain(ctx, c, key, cfg.ttl, opts...)
	},
	// Do's section is fn's run, cut short when fn's context ends (the
	// lock lost); its token comes from the history.
	do: func(ctx context.Context, c lock.Client, op *history.Op, hold time.Duration, cfg checkConfig) {
		ran := false
		err := lock.Do(ctx, c, op.Key, cfg.ttl, func(fctx context.Context) error {
			ran, op.End = true, time.Now()
			ended := endOf(fctx)
			time.Sleep(hold)
			op.ReleaseStart = time.Now()
			op.Until = ended()
			return nil
		}, lock.WithFencing(), lock.WithMaxWait(cfg.maxWait), lock.WithReleaseTimeout(cfg.release))
		if !ran {
			op.End, op.Err = time.Now(), err
			return
		}
		op.ReleaseEnd, op.ReleaseErr = time.Now(), err
	},
}

// checkStats counts what a run exercised.
type checkStats struct {
	obtains, sections, commands, faults, samples int
}

// randomFaults returns a fault schedule drawn from r: each command gets a
// fault with probability rate; one message in ten is dropped and one
// subscription in twenty fails.
func randomFaults(r *rand.Rand, rate float64, maxStall time.Duration) func(faulty.Kind, []string) (faulty.Action, time.Duration) {
	return func(k faulty.Kind, _ []string) (faulty.Action, time.Duration) {
		switch k {
		case faulty.Message:
			if r.Float64() < 0.1 {
				return faulty.LoseReply, 0
			}
			return 0, 0
		case faulty.Subscribe:
			if r.Float64() < 0.05 {
				return faulty.FailSend, 0
			}
			return 0, 0
		}
		if r.Float64() >= rate {
			return 0, 0
		}
		a := faulty.Action(1 + r.IntN(4))
		if a == faulty.Stall {
			return a, time.Duration(r.Int64N(int64(maxStall)))
		}
		return a, 0
	}
}

// runCheck runs cfg.procs processes (a client each, with its own fault
// schedule) of cfg.workers goroutines taking cfg.keys keys with lk, while a
// monitor reads the keys past the faults; it returns the history.
func runCheck(t *testing.T, s faultyServer, wrap func() *faulty.Client, lk locker, cfg checkConfig) (history.History, checkStats) {
	ctx := ctxT(t)
	keys := make([]string, cfg.keys)
	for i := range keys {
		keys[i] = fmt.Sprintf("%s:%d", uniqueKey(t), i)
	}
	clients := make([]*faulty.Client, cfg.procs)
	for p := range clients {
		clients[p] = wrap()
		clients[p].Randomly(randomFaults(rand.New(rand.NewPCG(cfg.seed, uint64(p))), cfg.faultRate, cfg.maxStall))
	}
	var (
		mu   sync.Mutex
		ops  []history.Op
		next atomic.Int64
		wg   sync.WaitGroup
	)
	stop := make(chan struct{})
	var samples []history.Sample
	monitorDone := make(chan struct{})
	go func() {
		defer close(monitorDone)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			k := keys[i%len(keys)]
			sent := time.Now()
			v, err := s.admin.Get(ctx, k).Result()
			got := time.Now()
			if err != nil && v == "" && !errors.Is(err, redis.Nil) {
				continue
			}
			samples = append(samples, history.Sample{Key: k, Sent: sent, Got: got, Value: v})
			// Leave the workers most of the CPU.
			time.Sleep(500 * time.Microsecond)
		}
	}()
	end := time.Now().Add(cfg.duration)
	for p, c := range clients {
		for w := range cfg.workers {
			wg.Add(1)
			r := rand.New(rand.NewPCG(cfg.seed, uint64(1000*p+w+1)))
			go func() {
				defer wg.Done()
				for time.Now().Before(end) {
					id := fmt.Sprintf("op%d", next.Add(1))
					octx := faulty.Tag(ctx, id)
					op := history.Op{Process: p, Worker: w, Key: keys[r.IntN(len(keys))], MaxWait: cfg.maxWait, ReleaseTimeout: cfg.release}
					// Most sections are short; some pause past the lease,
					// as a stalled process would.
					hold := time.Duration(r.Int64N(int64(20 * time.Millisecond)))
					if r.IntN(cfg.pauseEvery) == 0 {
						hold = cfg.ttl + time.Duration(r.Int64N(int64(cfg.ttl/4)))
					}
					op.Token = id // until the lock names it, or the history does
					op.Start = time.Now()
					if lk.do != nil && r.IntN(4) == 0 {
						lk.do(octx, c, &op, hold, cfg)
					} else {
						lk.hold(octx, c, &op, hold, r.IntN(3) == 0, cfg)
					}
					if op.Err != nil {
						time.Sleep(time.Duration(r.Int64N(int64(10 * time.Millisecond))))
					}
					mu.Lock()
					ops = append(ops, op)
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	// Long enough for a token left behind to be seen past the grace.
	grace := 800 * time.Millisecond
	time.Sleep(grace + 200*time.Millisecond)
	close(stop)
	<-monitorDone

	h := history.History{
		Samples: samples, Slack: 250 * time.Millisecond, Grace: grace,
		NotObtained: func(err error) bool { return errors.Is(err, lock.ErrNotObtained) },
	}
	if s.name == "miniredis" {
		// miniredis expires keys as a goroutine moves its clock in steps:
		// a key set between two steps loses the time before it was set, a
		// whole step when the goroutine is starved (36 ms seen under load).
		h.Expiry = 100 * time.Millisecond
	}
	var st checkStats
	tokens := map[string]string{} // op id -> token
	for p, c := range clients {
		for _, sent := range c.History() {
			if tok := sent.Token(); tok != "" && tokens[sent.Tag] == "" {
				tokens[sent.Tag] = tok
			}
			h.Commands = append(h.Commands, history.Command{Process: p, At: sent.At, Arrive: sent.Arrive, Kind: string(sent.Kind), Fault: faultName(sent.Fault), Words: sent.Words})
		}
		st.faults += c.Faults()
	}
	for _, op := range ops {
		if strings.HasPrefix(op.Token, "op") {
			op.Token = tokens[op.Token]
		}
		h.Ops = append(h.Ops, op)
		st.obtains++
		if op.Err == nil {
			st.sections++
		}
	}
	st.commands, st.samples = len(h.Commands), len(samples)
	return h, st
}

// checkSeed is the fixed seed of one client kind and server.
func checkSeed(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// TestRandomizedFaultsChecker runs the library under seeded random faults
// (lost replies, failed sends, duplicated and stalled commands, failed
// subscriptions and dropped wake-ups) on every client kind, against
// miniredis and a real redis-server, 3 processes x 4 goroutines on 3 keys,
// and checks the history: mutual exclusion within each lease, the key
// holding the holder's token, strictly increasing fences, no token left
// behind, no command of a lock sent after its release, bounded waits,
// typed errors, and no command left in flight. The seeds are fixed; -soak
// runs fresh ones for that long.
func TestRandomizedFaultsChecker(t *testing.T) {
	if testing.Short() {
		t.Skip("randomized checker: not in -short")
	}
	var total checkStats
	eachFaultyClient(t, func(t *testing.T, s faultyServer, wrap func() *faulty.Client) {
		runs := 0
		for start := time.Now(); runs == 0 || time.Since(start) < *soak; runs++ {
			seed := checkSeed(t.Name())
			if *soak > 0 {
				seed = rand.Uint64()
			}
			h, st := runCheck(t, s, wrap, libraryLock, defaultCheck(seed))
			for _, v := range history.Check(h) {
				t.Errorf("seed %d: %s", seed, v)
			}
			if *histOut != "" && t.Failed() {
				if err := os.WriteFile(*histOut, []byte(h.String()), 0o644); err != nil {
					t.Error(err)
				}
			}
			deadline := time.Now().Add(5 * time.Second)
			for lock.InFlight() != 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if n := lock.InFlight(); n != 0 {
				t.Errorf("seed %d: %d commands still in flight 5s after the run", seed, n)
			}
			if st.sections == 0 {
				t.Errorf("seed %d: no lock was obtained in %d attempts", seed, st.obtains)
			}
			if t.Failed() {
				t.Logf("reproduce with -run '^%s$' (seed %d)", t.Name(), seed)
				return
			}
			total.obtains += st.obtains
			total.sections += st.sections
			total.commands += st.commands
			total.faults += st.faults
			total.samples += st.samples
		}
	})
	t.Logf("%d obtains, %d critical sections checked, %d commands sent, %d faults injected, %d key reads",
		total.obtains, total.sections, total.commands, total.faults, total.samples)
}

// brokenLocks are locks with one planted flaw each, and the property the
// checker must find broken.
var brokenLocks = []struct {
	lk   locker
	want []string // any of these properties
	tune func(*checkConfig)
}{
	{locker{name: "SET without NX", obtain: func(ctx context.Context, c lock.Client, key string, cfg checkConfig, _ bool) (held, error) {
		return pollBroken(ctx, c, key, cfg, func(ctx context.Context, tok string) (bool, error) {
			r, err := c.Do(ctx, lock.Command{Head: []string{"SET"}, Keys: []string{key}, Args: []string{tok, "PX", ms(cfg.ttl)}})
			return r != nil, err
		}, compareAndDelete)
	}}, []string{history.Exclusion, history.KeyHeld}, nil},
	{locker{name: "plain DEL release", obtain: func(ctx context.Context, c lock.Client, key string, cfg checkConfig, _ bool) (held, error) {
		return pollBroken(ctx, c, key, cfg, setNX(c, key, cfg), func(ctx context.Context, c lock.Client, key, _ string) error {
			_, err := c.Do(ctx, lock.Command{Head: []string{"DEL"}, Keys: []string{key}})
			return err
		})
	}}, []string{history.KeyHeld, history.Exclusion}, func(cfg *checkConfig) {
		// The stale DEL must land in another holder's section: let many
		// sections outlast a short lease, and few commands fail.
		cfg.pauseEvery, cfg.ttl, cfg.faultRate, cfg.duration = 2, 600*time.Millisecond, 0.02, 4*time.Second
	}},
	{locker{name: "fence taken outside the acquire", obtain: func(ctx context.Context, c lock.Client, key string, cfg checkConfig, _ bool) (held, error) {
		fence, err := c.Do(ctx, lock.Command{Head: []string{"INCR"}, Keys: []string{key + ":fence"}})
		if err != nil {
			return nil, fmt.Errorf("%w: %w", lock.ErrNotObtained, err)
		}
		h, err := pollBroken(ctx, c, key, cfg, setNX(c, key, cfg), compareAndDelete)
		if err != nil {
			return nil, err
		}
		h.fence = fence.(int64)
		return h, nil
	}}, []string{history.Fences}, func(cfg *checkConfig) {
		// Many short sections, few failed commands: fences drawn early
		// meet later holders.
		cfg.pauseEvery, cfg.faultRate = 1000, 0.02
	}},
	{locker{name: "lost reply ignored", obtain: func(ctx context.Context, c lock.Client, key string, cfg checkConfig, _ bool) (held, error) {
		return pollBroken(ctx, c, key, cfg, setNX(c, key, cfg), compareAndDelete)
	}}, []string{history.Orphan}, func(cfg *checkConfig) {
		// An orphan outlives the grace only when the lease is longer; many
		// short sections make many acquires for the faults to hit; a run
		// long enough for a few leases to lapse even when the machine is
		// busy and the stalls leave few sections.
		cfg.ttl, cfg.faultRate, cfg.pauseEvery, cfg.duration = 2500*time.Millisecond, 0.3, 1000, 12*time.Second
	}},
}

func ms(d time.Duration) string { return fmt.Sprint(d.Milliseconds()) }

func setNX(c lock.Client, key string, cfg checkConfig) func(context.Context, string) (bool, error) {
	return func(ctx context.Context, tok string) (bool, error) {
		r, err := c.Do(ctx, lock.Command{Head: []string{"SET"}, Keys: []string{key}, Args: []string{tok, "NX", "PX", ms(cfg.ttl)}})
		return r != nil, err
	}
}

func compareAndDelete(ctx context.Context, c lock.Client, key, tok string) error {
	return lock.Release(ctx, c, key, tok)
}

// brokenHeld is a broken lock's hold.
type brokenHeld struct {
	c          lock.Client
	key, token string
	fence      int64
	until      time.Time
	release    func(ctx context.Context, c lock.Client, key, tok string) error
}

func (h *brokenHeld) Token() string                     { return h.token }
func (h *brokenHeld) Fence() int64                      { return h.fence }
func (h *brokenHeld) Until() time.Time                  { return h.until }
func (h *brokenHeld) Release(ctx context.Context) error { return h.release(ctx, h.c, h.key, h.token) }

// pollBroken polls acquire every 10 ms within the wait; an error ends the
// Obtain as not obtained, with nothing cleaned up.
func pollBroken(ctx context.Context, c lock.Client, key string, cfg checkConfig, acquire func(ctx context.Context, tok string) (bool, error),
	release func(ctx context.Context, c lock.Client, key, tok string) error) (*brokenHeld, error) {
	tok := fmt.Sprintf("broken-%d", rand.Uint64())
	deadline := time.Now().Add(cfg.maxWait)
	for {
		start := time.Now()
		ok, err := acquire(ctx, tok)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", lock.ErrNotObtained, err)
		}
		if ok {
			return &brokenHeld{c: c, key: key, token: tok, until: start.Add(cfg.ttl), release: release}, nil
		}
		if time.Now().After(deadline) {
			return nil, lock.ErrNotObtained
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestCheckerCatchesBrokenLocks proves the checker can fail: each broken
// lock runs under the same harness (go-redis v9, a real redis-server, the
// fault rate raised so that lost replies are frequent) and the checker
// must report its planted flaw.
func TestCheckerCatchesBrokenLocks(t *testing.T) {
	if testing.Short() {
		t.Skip("randomized checker: not in -short")
	}
	scripts, err := libraryScripts()
	if err != nil {
		t.Fatal(err)
	}
	srv := faultyServer{name: "redis-server"}
	real := redistest.Start(t)
	srv.addr, srv.admin = real.Addr, real.Client(t, nil)
	k := clientKinds[slices.IndexFunc(clientKinds, func(k clientKind) bool { return k.name == "go-redis v9" })]
	for _, b := range brokenLocks {
		t.Run(b.lk.name, func(t *testing.T) {
			cfg := defaultCheck(checkSeed(t.Name()))
			// One key, so that every flaw meets contention.
			cfg.faultRate, cfg.keys = 0.15, 1
			if b.tune != nil {
				b.tune(&cfg)
			}
			h, st := runCheck(t, srv, func() *faulty.Client { return faulty.New(k.standalone(t, srv.addr), scripts) }, b.lk, cfg)
			found := map[string]int{}
			for _, v := range history.Check(h) {
				found[v.Property]++
			}
			caught := 0
			for _, p := range b.want {
				caught += found[p]
			}
			if caught == 0 {
				t.Errorf("the checker missed the planted flaw (%s) in %d sections; it found %v", strings.Join(b.want, " or "), st.sections, found)
			}
			var names []string
			for p, n := range found {
				names = append(names, fmt.Sprintf("%s x%d", p, n))
			}
			slices.Sort(names)
			t.Logf("%d sections: %s", st.sections, strings.Join(names, ", "))
		})
	}
}

func faultName(a faulty.Action) string {
	if a == 0 {
		return ""
	}
	return a.String()
}
