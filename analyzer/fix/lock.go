package fix

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

// Lock is one acquisition of a key. Its identity (Key, Token, Fence) never
// changes; all methods are safe for concurrent use.
type Lock struct {
	client         redis.UniversalClient
	key            string
	token          string
	fence          int64
	obs            *Observer
	releaseTimeout time.Duration

	ctx    context.Context
	cancel context.CancelCauseFunc

	mu         sync.Mutex
	state      lockState
	leaseEnd   time.Time // carries a monotonic reading
	leaseTimer *time.Timer
	ttl        time.Duration // what the watchdog renews with; Refresh sets it

	watched      bool
	maxHoldEnd   time.Time          // zero with WithKeepAlive
	stopWatchdog context.CancelFunc // set and used by newLock and Release only
	watchdogDone chan struct{}
	lastRenewal  atomic.Bool // the watchdog made its final renewal, up to the maximum hold
}

type lockState int

const (
	held lockState = iota
	releasing
	released
)

// Obtain acquires key for ttl with SET key token NX PX ttl, or with the
// acquire script when fencing or waiting; one round trip per attempt either
// way. The token is 128 random bits, fresh for each call.
//
// Obtain makes one attempt unless told to wait: WithMaxWait(d) retries for
// up to d (and no later than ctx's deadline), WithWait until ctx's
// deadline. A deadline alone does not make it wait, so that a request
// deadline set far up the call chain does not turn a try into a poll.
// Retries stop after Backoff.MaxAttempts, follow DefaultBackoff (or
// WithBackoff) and end early when ctx is done. When it gives up, the error
// matches ErrNotObtained and, if the wait ran out, the context's error as
// well.
//
// Waiting callers take turns: the earliest waiter to find the lock taken
// claims a short-lived turn key next to the lock key (an earlier waiter
// takes the turn over when it next polls), and a free lock is left to the
// holder of that turn, which polls within Backoff.Base. So the owner that
// just released cannot take the lock straight back from a caller already
// waiting, and a waiter that has backed off far is not passed over. Start
// times are the server's: each poll says how long its caller has waited
// (on the local monotonic clock) and the script subtracts that from the
// server's TIME, so a host whose clock runs behind gains nothing. A turn
// lapses 250 ms plus ten Backoff.Base (350 ms by default) after its
// holder's last poll, so a waiter that vanishes delays others only that
// long. Single attempts (no deadline) neither claim nor honour turns.
// WithoutFairness turns this off.
//
// The lock's lease is measured locally from the start of the successful
// attempt, so Until is never later than the server's expiry.
func Obtain(ctx context.Context, client redis.UniversalClient, key string, ttl time.Duration, opts ...Option) (*Lock, error) {
	o := newOptions(opts)
	if err := checkObtain(client, key, ttl, &o); err != nil {
		return nil, fmt.Errorf("obtain %q: %w", key, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("obtain %q: %w: %w", key, ErrNotObtained, err)
	}
	if _, ok := ctx.Deadline(); o.wait && !ok && o.maxWait == 0 {
		return nil, fmt.Errorf("obtain %q: %w: WithWait needs a context deadline", key, ErrInvalidOption)
	}
	ttl = ttl.Truncate(time.Millisecond)

	if o.maxWait > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.maxWait)
		defer cancel()
	}
	waiting := o.maxWait > 0 || o.wait
	maxAttempts := o.backoff.MaxAttempts
	if !waiting {
		maxAttempts = 1
	}

	a := &acquisition{client: client, key: key, token: rand.Text(), ttl: ttl, o: &o, keys: []string{key}, fenced: "0"}
	if o.fencing {
		a.keys = append(a.keys, o.fenceKey, o.fenceRecord)
		a.fenced = "1"
	}
	turnKey := siblingKey(key, "turn")
	if waiting && o.fair {
		if hashSlot(turnKey) != hashSlot(key) {
			return nil, fmt.Errorf("obtain %q: %w: no waiter turn key shares its slot; give the key a {hash tag} or use WithoutFairness", key, ErrCrossSlot)
		}
		a.keys = append(a.keys, turnKey, siblingKey(key, "turn:since"))
		a.queued = true
	}
	direct := honoursContext(client)

	begin := time.Now()
	a.begin = begin
	var timer *time.Timer
	myTurn := false
	// An attempt that failed on the network may have set the token; later
	// attempts re-send it (the acquire is idempotent), and a final failure
	// removes it.
	maybeSet := false
	// The server's lease starts with the first copy that set the token; a
	// later copy that finds it does not restart it.
	var leaseFrom time.Time
	fail := func(attempts int, err error) (*Lock, error) {
		if maybeSet {
			err = fmt.Errorf("%w%s", err, a.remove(ctx, key, a.token))
		}
		if myTurn && ctx.Err() == nil {
			// Let the next waiter have the turn now rather than after it
			// lapses (within the turn TTL anyway); not worth running past
			// the caller's deadline for.
			a.remove(ctx, turnKey, a.token)
		}
		o.observer.acquired(ctx, key, time.Since(begin), attempts, err)
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		start := time.Now()
		// A reply that comes after ctx ended is not awaited; if that
		// attempt took the lock, or may have, its token is removed then.
		res, err, inFlight := bounded(ctx, direct, func() (int64, error) { return a.attempt(ctx) }, func(res int64, err error) {
			if res > 0 || err != nil {
				_ = a.removeNow(ctx, key, a.token)
			}
		})
		if inFlight {
			return fail(attempt, fmt.Errorf("obtain %q: %w: %w; the attempt in flight removes its token if it took the lock", key, ErrNotObtained, err))
		}
		if err != nil {
			// The command may have run with its reply lost (the client gave
			// up re-sending it), unless the server refused it.
			var rerr redis.Error
			if !errors.As(err, &rerr) && !maybeSet {
				maybeSet, leaseFrom = true, start
			}
			if !waiting || !transient(err) || maxAttempts > 0 && attempt >= maxAttempts {
				if ctx.Err() != nil {
					return fail(attempt, fmt.Errorf("obtain %q: %w: %w (%w)", key, ErrNotObtained, ctx.Err(), err))
				}
				return fail(attempt, fmt.Errorf("obtain %q: %w", key, err))
			}
			// A failover or a reset connection: try again within the wait.
			if !sleep(ctx, &timer, o.backoff.delay(attempt, false)) {
				return fail(attempt, fmt.Errorf("obtain %q: %w after %d attempts: %w (last: %w)", key, ErrNotObtained, attempt, ctx.Err(), err))
			}
			continue
		}
		if res == -2 {
			// Only a fence record that expired before the lock (its lease
			// was extended between the two copies of the command) gets
			// here: the fence is unknown, so the lock is no use.
			maybeSet = true
			return fail(attempt, fmt.Errorf("obtain %q: %w: the fence issued with the lock expired", key, ErrNotObtained))
		}
		if res > 0 {
			var fence int64
			if o.fencing {
				fence = res
			}
			if !leaseFrom.IsZero() {
				start = leaseFrom
			}
			o.observer.acquired(ctx, key, time.Since(begin), attempt, nil)
			return newLock(ctx, client, key, a.token, fence, start, ttl, &o), nil
		}
		myTurn = res == -1
		o.observer.contended(ctx, key, attempt)
		if maxAttempts > 0 && attempt >= maxAttempts {
			return fail(attempt, fmt.Errorf("obtain %q: %w after %d attempts", key, ErrNotObtained, attempt))
		}
		if !sleep(ctx, &timer, o.backoff.delay(attempt, myTurn)) {
			return fail(attempt, fmt.Errorf("obtain %q: %w after %d attempts: %w", key, ErrNotObtained, attempt, ctx.Err()))
		}
	}
}

// sleep waits d, reusing *timer, and reports false if ctx ended first.
func sleep(ctx context.Context, timer **time.Timer, d time.Duration) bool {
	if *timer == nil {
		*timer = time.NewTimer(d)
	} else {
		(*timer).Reset(d)
	}
	select {
	case <-ctx.Done():
		(*timer).Stop()
		return false
	case <-(*timer).C:
		return true
	}
}

// transient reports an error that a failover or a network blip causes and
// that a later attempt can get past: a node loading its data, a Cluster
// resharding or without a quorum, a replica that was a master, or a
// connection reset. The acquire is idempotent, so re-sending is safe.
func transient(err error) bool {
	var rerr redis.Error
	if errors.As(err, &rerr) {
		msg := rerr.Error()
		for _, p := range []string{"LOADING", "TRYAGAIN", "CLUSTERDOWN", "READONLY", "MASTERDOWN"} {
			if strings.HasPrefix(msg, p) {
				return true
			}
		}
		return false
	}
	var nerr net.Error
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE) || errors.As(err, &nerr)
}

// acquisition is one Obtain call's fixed inputs.
type acquisition struct {
	client redis.UniversalClient
	key    string
	token  string
	ttl    time.Duration
	o      *options
	keys   []string
	fenced string
	queued bool      // takes turns with other waiters
	begin  time.Time // of the wait, on the monotonic clock
}

// attempt sends one acquire and returns the fence (1 without fencing) when
// it took the lock, 0 or -1 (the caller holds the next turn) when not, and
// -2 for a lock of this token whose fence is gone. A re-sent copy of the
// command (the client lost the first reply) that finds this token is the
// same acquisition: SET NX GET returns the token, and the script returns
// the fence recorded with the lock.
func (a *acquisition) attempt(ctx context.Context) (int64, error) {
	if len(a.keys) == 1 {
		feats := featuresFor(ctx, a.client, a.key)
		if feats.has(featSetNXGet) {
			old, err := a.client.SetArgs(ctx, a.key, a.token, redis.SetArgs{Mode: "NX", TTL: a.ttl, Get: true}).Result()
			switch {
			case errors.Is(err, redis.Nil):
				feats.learn(featSetNXGet, true)
				return 1, nil
			case err == nil:
				feats.learn(featSetNXGet, true)
				if old == a.token {
					return 1, nil
				}
				return 0, nil
			case !isUnsupported(err):
				return 0, err
			}
			// Before Redis 7.0 NX and GET do not combine; the syntax error
			// comes before anything ran.
			feats.learn(featSetNXGet, false)
		}
	}
	// A waiter sends how long it has waited, not a time of day: the script
	// dates its start by the server's clock, so host clocks cannot skew
	// the order.
	waited := ""
	if a.queued {
		waited = strconv.FormatInt(time.Since(a.begin).Milliseconds(), 10)
	}
	return acquireScript.Run(ctx, a.client, a.keys, a.token, a.ttl.Milliseconds(), a.fenced, waited, a.o.backoff.turnTTL().Milliseconds()).Int64()
}

// remove deletes key if it holds value: the cleanup after a failed
// attempt. The command runs detached from ctx's cancellation for up to the
// release timeout, but the caller waits no longer than ctx's deadline; a
// removal still running then finishes on its own goroutine, within the
// release timeout on a client that honours context deadlines and within
// the client's ReadTimeout otherwise. It returns a note for the error.
func (a *acquisition) remove(ctx context.Context, key, value string) string {
	rctx, cancel := detached(ctx, a.o.releaseTimeout)
	op := func() (ReleasePath, error) { return compareAndDelete(rctx, a.client, key, value) }
	wait, direct := rctx, honoursContext(a.client)
	if _, ok := ctx.Deadline(); ok {
		wait, direct = ctx, false
	}
	// A removal the caller stops waiting for keeps its context until done.
	_, err, inFlight := bounded(wait, direct, op, func(ReleasePath, error) { cancel() })
	if !inFlight {
		cancel()
	}
	switch {
	case inFlight:
		return "; removal of its token continues in the background"
	case err == nil, errors.Is(err, ErrNotHeld):
		return "; no token of it is left"
	default:
		return fmt.Sprintf("; its token may remain until the lease ends (removal: %v)", err)
	}
}

// removeNow is remove for a goroutine that may block: it waits the whole
// release timeout.
func (a *acquisition) removeNow(ctx context.Context, key, value string) error {
	rctx, cancel := detached(ctx, a.o.releaseTimeout)
	defer cancel()
	_, err := compareAndDelete(rctx, a.client, key, value)
	return err
}

func checkObtain(client redis.UniversalClient, key string, ttl time.Duration, o *options) error {
	if _, ok := client.(*redis.Ring); ok {
		return ErrRing
	}
	switch {
	case isNil(client):
		return ErrNilClient
	case key == "":
		return ErrInvalidKey
	case o.err != nil:
		return o.err
	}
	if err := checkTTL(ttl); err != nil {
		return err
	}
	if o.watchdog && o.maxHold > 0 && o.maxHold < ttl {
		// The first lease would already outlast the maximum hold.
		return fmt.Errorf("%w: watchdog max hold %s is shorter than the TTL %s", ErrInvalidOption, o.maxHold, ttl)
	}
	if !o.fencing {
		return nil
	}
	o.fenceRecord = siblingKey(key, "fenced")
	if hashSlot(o.fenceRecord) != hashSlot(key) {
		return fmt.Errorf("%w: cannot derive a fence record key in the slot of %q; give the key a {hash tag}", ErrCrossSlot, key)
	}
	if o.fenceKey == "" {
		o.fenceKey = siblingKey(key, "fence")
		return nil
	}
	if o.fenceKey == key || o.fenceKey == o.fenceRecord {
		return fmt.Errorf("%w: the fence key must differ from the lock key and %q", ErrInvalidKey, o.fenceRecord)
	}
	if hashSlot(o.fenceKey) != hashSlot(key) {
		return fmt.Errorf("%w: fence key %q is in slot %d, lock key in slot %d; give both the same {hash tag}",
			ErrCrossSlot, o.fenceKey, hashSlot(o.fenceKey), hashSlot(key))
	}
	return nil
}

func newLock(ctx context.Context, client redis.UniversalClient, key, token string, fence int64, start time.Time, ttl time.Duration, o *options) *Lock {
	l := &Lock{
		client:         client,
		key:            key,
		token:          token,
		fence:          fence,
		ttl:            ttl,
		obs:            o.observer,
		releaseTimeout: o.releaseTimeout,
		leaseEnd:       start.Add(ttl),
	}
	// The lock outlives the acquire context (often a short wait timeout) but
	// keeps its values.
	l.ctx, l.cancel = context.WithCancelCause(context.WithoutCancel(ctx))
	l.mu.Lock()
	l.leaseTimer = time.AfterFunc(time.Until(l.leaseEnd), l.leaseRanOut)
	l.mu.Unlock()
	if o.watchdog {
		l.watched = true
		if o.maxHold > 0 {
			l.maxHoldEnd = start.Add(o.maxHold)
		}
		l.startWatchdog()
	}
	return l
}

func (l *Lock) startWatchdog() {
	var wctx context.Context
	wctx, l.stopWatchdog = context.WithCancel(context.WithoutCancel(l.ctx))
	l.watchdogDone = make(chan struct{})
	go l.watchdog(wctx)
}

// A nil *Lock (from a failed Obtain) is safe to use: it holds nothing.
var errNilLock = fmt.Errorf("%w: nil lock", ErrNotHeld)

var nilLockCtx = func() context.Context {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errNilLock)
	return ctx
}()

// Key returns the locked key ("" for a nil Lock).
func (l *Lock) Key() string {
	if l == nil {
		return ""
	}
	return l.key
}

// Token returns the owner token stored in the key ("" for a nil Lock).
func (l *Lock) Token() string {
	if l == nil {
		return ""
	}
	return l.token
}

// Fence returns the fence number issued with the lock, or 0 without
// WithFencing. Pass it to the protected resource with every write.
func (l *Lock) Fence() int64 {
	if l == nil {
		return 0
	}
	return l.fence
}

// Until returns the local end of the lease: the start of the attempt that
// acquired (or last refreshed) the lock plus its TTL; the zero time for a
// nil Lock.
func (l *Lock) Until() time.Time {
	if l == nil {
		return time.Time{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.leaseEnd
}

// Context is cancelled when the lock can no longer be trusted, with
// context.Cause giving the reason: ErrLost when a renewal found the key gone
// (the cause then matches ErrNotHeld too) or the local lease ran out, and
// ErrReleased after Release. Without a watchdog it ends at Until. Run the
// critical section under it so that it stops when the lock goes. A nil
// Lock's Context is already done.
func (l *Lock) Context() context.Context {
	if l == nil {
		return nilLockCtx
	}
	return l.ctx
}

// Refresh sets the lease to ttl, measured from now, if the lock is still
// held; it never recreates an expired key. It returns ErrNotHeld when the
// server no longer has the token (and cancels Context with ErrLost), and
// without sending anything when the lock was released or already lost (or
// l is nil). The watchdog, if any, renews with ttl from then on.
func (l *Lock) Refresh(ctx context.Context, ttl time.Duration) error {
	if l == nil {
		return fmt.Errorf("refresh: %w", errNilLock)
	}
	if err := l.refresh(ctx, ttl); err != nil {
		return err
	}
	l.mu.Lock()
	l.ttl = ttl.Truncate(time.Millisecond)
	l.mu.Unlock()
	return nil
}

func (l *Lock) refresh(ctx context.Context, ttl time.Duration) error {
	if err := checkTTL(ttl); err != nil {
		return fmt.Errorf("refresh %q: %w", l.key, err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("refresh %q: %w", l.key, err)
	}
	if err := l.usable(); err != nil {
		return fmt.Errorf("refresh %q: %w", l.key, err)
	}
	ttl = ttl.Truncate(time.Millisecond)
	start := time.Now()
	err := refreshBounded(ctx, l.client, l.key, l.token, ttl)
	if errors.Is(err, ErrNotHeld) {
		l.lose(fmt.Errorf("%w: %q: renewal found %w", ErrLost, l.key, ErrNotHeld))
	}
	if err != nil {
		return fmt.Errorf("refresh %q: %w", l.key, err)
	}
	if err := l.extend(start.Add(ttl)); err != nil {
		return fmt.Errorf("refresh %q: %w", l.key, err)
	}
	return nil
}

func (l *Lock) usable() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.state != held {
		return ErrNotHeld
	}
	if l.ctx.Err() != nil {
		return context.Cause(l.ctx)
	}
	return nil
}

func (l *Lock) extend(end time.Time) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.state != held {
		return ErrNotHeld
	}
	// A timer that already fired has cancelled, or is about to cancel, the
	// context: the renewal came too late to trust.
	if l.ctx.Err() != nil || !l.leaseTimer.Reset(time.Until(end)) {
		return fmt.Errorf("%w: renewed after the local lease ran out", ErrLost)
	}
	l.leaseEnd = end
	return nil
}

func (l *Lock) leaseRanOut() {
	if l.lastRenewal.Load() {
		l.lose(fmt.Errorf("%w: %q reached its maximum hold", ErrLost, l.key))
		return
	}
	l.lose(fmt.Errorf("%w: lease on %q ran out", ErrLost, l.key))
}

func (l *Lock) lose(cause error) {
	l.mu.Lock()
	// While releasing, the release decides: it either deleted the key or,
	// failing, finds out itself whether the lease ran out meanwhile.
	if l.ctx.Err() != nil || l.state != held {
		l.mu.Unlock()
		return
	}
	l.leaseTimer.Stop()
	l.cancel(cause)
	l.mu.Unlock()
	l.obs.lost(context.WithoutCancel(l.ctx), l.key, cause)
}

// Release deletes the key if this lock still owns it and returns ErrNotHeld
// if it does not. It stops the watchdog and cancels Context. Only the first
// call sends a command; later ones (and calls racing it) return ErrNotHeld,
// except that a call that failed with a transport error may be retried:
// the lock is then held as before, its watchdog renewing again. It runs
// even when ctx is already cancelled, bounded by the release timeout. A nil
// Lock returns ErrNotHeld.
func (l *Lock) Release(ctx context.Context) error {
	if l == nil {
		return fmt.Errorf("release: %w", errNilLock)
	}
	l.mu.Lock()
	if l.state != held {
		l.mu.Unlock()
		return fmt.Errorf("release %q: %w", l.key, ErrNotHeld)
	}
	l.state = releasing
	l.mu.Unlock()

	if l.stopWatchdog != nil {
		l.stopWatchdog()
		<-l.watchdogDone
	}
	path, err := releaseBounded(ctx, l.client, l.key, l.token, l.releaseTimeout)

	l.mu.Lock()
	if err != nil && !errors.Is(err, ErrNotHeld) {
		l.state = held
		ranOut := !time.Now().Before(l.leaseEnd)
		if !ranOut && l.watched {
			// Under mu, so that a Release retried at once stops this one.
			l.startWatchdog()
		}
		l.mu.Unlock()
		if ranOut {
			l.lose(fmt.Errorf("%w: lease on %q ran out", ErrLost, l.key))
		}
		return fmt.Errorf("release %q: %w", l.key, err)
	}
	l.state = released
	l.leaseTimer.Stop()
	l.cancel(ErrReleased)
	l.mu.Unlock()

	l.obs.released(ctx, l.key, path, err == nil)
	if err != nil {
		return fmt.Errorf("release %q: %w", l.key, err)
	}
	return nil
}

func (l *Lock) renewTTL() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ttl
}

func (l *Lock) watchdog(ctx context.Context) {
	defer close(l.watchdogDone)
	t := time.NewTimer(l.renewTTL() / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.ctx.Done():
			return
		case <-t.C:
		}
		ttl := l.renewTTL()
		interval := ttl / 3
		final := false
		if left := time.Until(l.maxHoldEnd).Truncate(time.Millisecond); !l.maxHoldEnd.IsZero() && left < ttl {
			if left <= 0 {
				return
			}
			ttl, final = left, true
		}
		// A renewal that cannot finish within the current lease is useless.
		rctx, cancel := context.WithDeadline(ctx, l.Until())
		err := l.refresh(rctx, ttl)
		cancel()
		if ctx.Err() != nil {
			return
		}
		l.obs.renewed(ctx, l.key, err)
		switch {
		case err == nil:
			if final {
				// Only a final renewal that went through makes the end of
				// the lease the maximum hold.
				l.lastRenewal.Store(true)
				return
			}
			t.Reset(interval)
		case errors.Is(err, ErrNotHeld), errors.Is(err, ErrLost):
			return
		default:
			// Transient: try again soon, until the lease runs out.
			t.Reset(max(interval/4, 5*time.Millisecond))
		}
	}
}
