package lock

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Lock is one acquisition of a key. Its identity (Key, Token, Fence) never
// changes; all methods are safe for concurrent use.
type Lock struct {
	client         Client
	key            string
	token          string
	fence          int64
	obs            *Observer
	releaseTimeout time.Duration
	backoff        Backoff
	replicas       replicas
	// The queue the lock was obtained through (so its release hands it to
	// the next waiter and wakes other processes'), nil for a single
	// attempt or a polling wait.
	wq *waitQueue

	// Obtain's context without its cancellation: the values of Context.
	parent context.Context
	// An attempt of the Obtain that was still in flight when it returned
	// this lock (handed over meanwhile); nil when there was none.
	late *lateAttempt

	mu sync.Mutex
	// Context, made when first asked for (most locks are released without
	// anyone asking), and why it ended, set once.
	ctx        context.Context
	cancel     context.CancelCauseFunc
	cause      error
	state      lockState
	leaseEnd   time.Time     // carries a monotonic reading
	leaseTimer *alarm        // nil until the lease's end is watched, then &lease
	lease      alarm         // ends Context with the lease
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
// acquire script when fencing or queueing; one round trip per attempt,
// and a second (GET) when the first attempt finds the key taken, to tell
// an earlier copy of itself from another owner. The token is 128 random
// bits, fresh for each call.
//
// Obtain makes one attempt unless told to wait: WithMaxWait(d) waits for
// up to d (and no later than ctx's deadline), WithWait until ctx's
// deadline. A deadline alone does not make it wait, so that a request
// deadline set far up the call chain does not turn a try into a poll.
// When it gives up, the error matches ErrNotObtained and, if the wait ran
// out, the context's error as well.
//
// Waiting callers queue, first come first served, and do not poll a lock
// that is held. Callers of one process waiting for one key through one
// client queue in process: a release hands the lock to the next of them
// directly (the script that deletes the releaser's token sets the next
// waiter's, with its own lease and fence), so the owner that just
// released cannot take the lock straight back, and the waiters send
// nothing while they wait. Between processes the queue is on the server,
// next to the lock key, in the order the server received the entries,
// one per waiting process: a release that finds another process queued
// ahead reserves the lock for it (250 ms plus ten Backoff.Base, 350 ms by
// default, to claim it) and wakes it by pub/sub (shard channels on a
// Cluster client); the process's next waiter queues again. The waiter
// that represents a queued process asks the server again when woken, when
// the lock's lease (which the server reports) ends, and at the latest
// after Backoff.Cap, so a missed wake-up, a release that does not wake
// other processes (Release by token, or a lock taken with a single
// attempt or WithoutFairness, which hand on only to waiters of their own
// process) or a holder that died costs at most that long; a reservation
// for a process that vanished lapses, and the processes that heard of it
// ask again then. A process that gives up leaves the server's queue and
// passes on a lock reserved for it. Single attempts neither queue nor
// honour the queue.
// WithoutFairness, or a Backoff with MaxAttempts, makes Obtain poll
// instead: attempts follow the Backoff and end early when ctx is done,
// and the latest releaser wins most races.
//
// Transient errors (a failover, a reset connection) are retried within
// the wait after a Backoff delay. The lock's lease is measured locally
// from the start of the successful attempt, or of the hand-off, so Until
// is never later than the server's expiry.
func Obtain(ctx context.Context, client Client, key string, ttl time.Duration, opts ...Option) (*Lock, error) {
	// One allocation for the acquisition, its options and its first key.
	a := &acquisition{client: client, key: key}
	o := &a.opts
	o.init(opts)
	if err := checkObtain(client, key, ttl, o); err != nil {
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
		bound := withBound(ctx, o.maxWait)
		defer bound.stop()
		ctx = bound
	}
	waiting := o.maxWait > 0 || o.wait

	a.token, a.ttl, a.o, a.keyBuf[0] = rand.Text(), ttl, o, key
	a.keys = o.appendFenceKeys(a.keyBuf[:1])
	a.fenced = itoa(int64(len(a.keys) - 1))
	a.begin = time.Now()
	if waiting && o.fair && o.backoff.MaxAttempts == 0 {
		a.queue = siblingKey(key, "queue")
		if hashSlot(a.queue) != hashSlot(key) || hashSlot(siblingKey(key, "wake")) != hashSlot(key) {
			return nil, fmt.Errorf("obtain %q: %w: no waiter queue key shares its slot; give the key a {hash tag} or use WithoutFairness", key, ErrCrossSlot)
		}
		l, err := a.queued(ctx)
		a.late.settle(l)
		return l, err
	}
	l, err := a.poll(ctx, waiting)
	a.late.settle(l)
	return l, err
}

// poll makes one attempt, or retries after Backoff delays while waiting.
func (a *acquisition) poll(ctx context.Context, waiting bool) (*Lock, error) {
	o := a.o
	maxAttempts := o.backoff.MaxAttempts
	if !waiting {
		maxAttempts = 1
	}
	direct := honoursContext(ctx, a.client)
	var timer *time.Timer
	var t tries
	fail := func(attempts int, err error) (*Lock, error) {
		if t.maybeSet {
			err = fmt.Errorf("%w%s", err, a.remove(ctx, a.key, a.token))
		}
		o.observer.acquired(ctx, a.key, a.begin, attempts, err)
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		// The first attempt begins with the Obtain.
		start := a.begin
		if attempt > 1 {
			start = time.Now()
		}
		var res []int64
		var err error
		var inFlight bool
		if direct {
			res, err = a.attempt(ctx, "")
		} else {
			// A reply that comes after ctx ended is not awaited; if that
			// attempt took the lock, or may have, its token is removed then.
			res, err, inFlight = bounded(ctx, false, func() ([]int64, error) { return a.attempt(ctx, "") }, func(res []int64, err error) {
				a.late.reply(err != nil || len(res) > 0 && res[0] > 0, func() { _ = a.removeNow(ctx, a.key, a.token) })
			})
		}
		if inFlight {
			a.late.abandon()
			return fail(attempt, fmt.Errorf("obtain %q: %w: %w; the attempt in flight removes its token if it took the lock", a.key, ErrNotObtained, err))
		}
		if err != nil {
			t.failed(err, start)
			if !waiting || !transient(err) || maxAttempts > 0 && attempt >= maxAttempts {
				return fail(attempt, t.giveUp(ctx, a.key, err))
			}
			// A failover or a reset connection: try again within the wait.
			if !sleep(ctx, &timer, o.backoff.delay(attempt)) {
				return fail(attempt, fmt.Errorf("obtain %q: %w after %d attempts: %w (last: %w)", a.key, ErrNotObtained, attempt, ctx.Err(), err))
			}
			continue
		}
		switch code := res[0]; {
		case code == -2:
			// Only a fence record that expired before the lock (its lease
			// was extended between the two copies of the command) gets
			// here: the fence is unknown, so the lock is no use.
			t.maybeSet = true
			return fail(attempt, fmt.Errorf("obtain %q: %w: the fence issued with the lock expired", a.key, ErrNotObtained))
		case code > 0:
			o.observer.acquired(ctx, a.key, a.begin, attempt, nil)
			return newLock(ctx, a, a.fence(code), t.leaseStart(start), nil), nil
		}
		o.observer.contended(ctx, a.key, attempt)
		if maxAttempts > 0 && attempt >= maxAttempts {
			return fail(attempt, fmt.Errorf("obtain %q: %w after %d attempts", a.key, ErrNotObtained, attempt))
		}
		if !sleep(ctx, &timer, o.backoff.delay(attempt)) {
			return fail(attempt, fmt.Errorf("obtain %q: %w after %d attempts: %w", a.key, ErrNotObtained, attempt, ctx.Err()))
		}
	}
}

// tries is what an Obtain knows of its failed attempts.
type tries struct {
	// An attempt that failed on the network may have set the token; later
	// attempts re-send it (the acquire is idempotent), and a final failure
	// removes it.
	maybeSet bool
	// The server's lease starts with the first copy that set the token; a
	// later copy that finds it does not restart it.
	leaseFrom time.Time
}

// failed records an attempt that began at start and failed with err: the
// command may have run with its reply lost (the client gave up re-sending
// it), unless the server refused it.
func (t *tries) failed(err error, start time.Time) {
	if _, refused := serverError(err); !refused {
		t.mightHaveSet(start)
	}
}

// mightHaveSet records that the token may be in the key from at as
// early as start.
func (t *tries) mightHaveSet(start time.Time) {
	if !t.maybeSet || start.Before(t.leaseFrom) {
		t.maybeSet, t.leaseFrom = true, start
	}
}

func (t *tries) leaseStart(start time.Time) time.Time {
	if t.maybeSet && t.leaseFrom.Before(start) {
		return t.leaseFrom
	}
	return start
}

// giveUp is the error for an attempt that failed with err.
func (t *tries) giveUp(ctx context.Context, key string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("obtain %q: %w: %w (%w)", key, ErrNotObtained, ctx.Err(), err)
	}
	return fmt.Errorf("obtain %q: %w", key, err)
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
	if msg, ok := serverError(err); ok {
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
	client Client
	key    string
	token  string
	ttl    time.Duration
	o      *options
	keys   []string  // the lock key, then the fence keys
	fenced string    // how many fence keys there are
	queue  string    // the server's waiter queue key when queueing
	begin  time.Time // of the wait, on the monotonic clock
	tried  bool      // an attempt was sent
	opts   options   // what o points to
	keyBuf [3]string // what keys starts in
	// What a fenced attempt's result is read from.
	fenceRes [1]int64
	// An attempt left in flight, and its reply.
	late lateAttempt
}

// fence turns an acquire result into the lock's fence.
func (a *acquisition) fence(res int64) int64 {
	if a.o.fencing {
		return res
	}
	return 0
}

// attempt sends one acquire and returns {fence} (fence 1 without fencing)
// when it took the lock, {0, pttl} when not, and {-2} for a lock of this
// token whose fence is gone. entry is the process's entry in the
// server's queue, "" for an attempt that does not queue. A re-sent copy
// of the command (the client lost the first reply) that finds this token
// is the same acquisition: the GET after SET NX PX, or SET NX GET, returns
// the token, and the script returns the fence recorded with the lock.
func (a *acquisition) attempt(ctx context.Context, entry string) ([]int64, error) {
	res, acks, err := a.send(ctx, entry)
	if err == nil && len(res) > 0 && res[0] > 0 {
		if short := a.o.replicas.short(acks); short != nil {
			// The caller removes the token, as after any failed attempt
			// that may have set it.
			return nil, fmt.Errorf("%w: %w", ErrNotObtained, short)
		}
	}
	return res, err
}

// The results of an attempt that took the lock without a fence, and of
// one that found it taken (its lease unknown), shared: read only.
var (
	obtained = []int64{1}
	taken    = []int64{0, -1}
)

// send sends one acquire, and the WAIT of WithReplicas after it on the
// same connection, and returns the acquire's result and the replicas that
// acknowledged it.
func (a *acquisition) send(ctx context.Context, entry string) ([]int64, ack, error) {
	rep := a.o.replicas
	first := !a.tried
	a.tried = true
	if len(a.keys) == 1 && entry == "" && first && rep.n == 0 {
		// The first attempt: SET NX PX replies OK when it takes the lock,
		// which a client reads faster than the null reply SET NX GET gives
		// then (go-redis classifies a null as an error). A key found taken
		// is read, to tell an earlier copy of this command (re-sent after
		// a lost reply) from another owner: a second round trip, on the
		// contended path only; later attempts of a wait send SET NX GET.
		ok, err := a.client.Do(ctx, command(1, 1, "SET", a.key, a.token, "NX", "PX", itoa(a.ttl.Milliseconds())))
		if err != nil {
			return nil, ack{}, err
		}
		if ok != nil {
			return obtained, ack{}, nil
		}
		old, err := a.client.Do(ctx, command(1, 1, "GET", a.key))
		if err != nil {
			return nil, ack{}, err
		}
		if old, _ := old.(string); old == a.token {
			return obtained, ack{}, nil
		}
		return taken, ack{}, nil
	}
	if len(a.keys) == 1 && entry == "" {
		feats := featuresFor(ctx, a.client, a.key)
		if feats.has(featSetNXGet) {
			old, acks, err := rep.acked(ctx, a.client, command(1, 1, "SET", a.key, a.token, "NX", "PX", itoa(a.ttl.Milliseconds()), "GET"))
			switch {
			case err == nil && old == nil:
				feats.learn(featSetNXGet, true)
				return obtained, acks, nil
			case err == nil:
				feats.learn(featSetNXGet, true)
				if old, _ := old.(string); old == a.token {
					return obtained, acks, nil
				}
				return taken, acks, nil
			case !isUnsupported(err):
				return nil, acks, err
			}
			// Before Redis 7.0 NX and GET do not combine; the syntax error
			// comes before anything ran.
			feats.learn(featSetNXGet, false)
		}
	}
	if entry == "" && a.o.fencing {
		r, acks, err := fencedScript.runAcked(ctx, a.client, rep, a.keys, a.token, itoa(a.ttl.Milliseconds()))
		if err != nil {
			return nil, acks, err
		}
		switch fence, err := integer(r); {
		case err != nil:
			return nil, acks, err
		case fence == 0:
			return taken, acks, nil
		default:
			// The attempts of one Obtain run one at a time.
			a.fenceRes[0] = fence
			return a.fenceRes[:], acks, nil
		}
	}
	keys := a.keys
	if entry != "" {
		keys = append(keys[:len(keys):len(keys)], a.queue)
	}
	b := &a.o.backoff
	r, acks, err := acquireScript.runAcked(ctx, a.client, rep, keys, a.token, itoa(a.ttl.Milliseconds()), a.fenced, entry,
		itoa(b.grantTTL().Milliseconds()), itoa(b.queueTTL().Milliseconds()), siblingKey(a.key, "wake"), publishMode(a.client))
	if err != nil {
		return nil, acks, err
	}
	res, err := int64s(r)
	if err == nil && len(res) == 0 {
		err = errors.New("acquire script returned nothing")
	}
	return res, acks, err
}

// remove deletes key if it holds value: the cleanup after a failed
// attempt. The command runs detached from ctx's cancellation for up to the
// release timeout, but the caller waits no longer than ctx's deadline; a
// removal still running then finishes on its own goroutine, within the
// release timeout on a client that honours context deadlines and within
// the client's ReadTimeout otherwise. It returns a note for the error.
func (a *acquisition) remove(ctx context.Context, key, value string) string {
	return a.removeWith(ctx, func(rctx context.Context) error {
		_, err := compareAndDelete(rctx, a.client, key, value)
		return err
	})
}

// removeWith runs a token removal as remove describes.
func (a *acquisition) removeWith(ctx context.Context, removal func(context.Context) error) string {
	rctx := detached(ctx, a.o.releaseTimeout)
	op := func() (struct{}, error) { return struct{}{}, removal(rctx) }
	var wait context.Context = rctx
	direct := honoursContext(rctx, a.client)
	if _, ok := ctx.Deadline(); ok {
		wait, direct = ctx, false
	}
	// A removal the caller stops waiting for keeps its context until done.
	_, err, inFlight := bounded(wait, direct, op, func(struct{}, error) { rctx.stop() })
	if !inFlight {
		rctx.stop()
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
	rctx := detached(ctx, a.o.releaseTimeout)
	defer rctx.stop()
	_, err := compareAndDelete(rctx, a.client, key, value)
	return err
}

func checkObtain(client Client, key string, ttl time.Duration, o *options) error {
	switch {
	case isNilClient(client):
		return ErrNilClient
	case key == "":
		return ErrInvalidKey
	case o.err != nil:
		return o.err
	}
	if err := checkTTL(ttl); err != nil {
		return err
	}
	if o.replicas.n > 0 && o.replicas.timeout >= ttl {
		return fmt.Errorf("%w: replica timeout %s is not shorter than the TTL %s", ErrInvalidOption, o.replicas.timeout, ttl)
	}
	if o.watchdog && o.maxHold > 0 && o.maxHold < ttl {
		// The first lease would already outlast the maximum hold.
		return fmt.Errorf("%w: watchdog max hold %s is shorter than the TTL %s", ErrInvalidOption, o.maxHold, ttl)
	}
	if !o.fencing {
		return nil
	}
	if o.fenceKey == "" {
		o.fenceKey = siblingKey(key, "fence")
		return nil
	}
	// A counter of the caller's choosing may be shared with other locks,
	// so the fence issued with this one is recorded next to it.
	o.fenceRecord = siblingKey(key, "fenced")
	if hashSlot(o.fenceRecord) != hashSlot(key) {
		return fmt.Errorf("%w: cannot derive a fence record key in the slot of %q; give the key a {hash tag}", ErrCrossSlot, key)
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

// newLock makes the Lock of a successful acquisition a, the server's lease
// starting no earlier than start; wq is the queue it was obtained
// through, if any, whose holder it becomes before its lease timer runs.
func newLock(ctx context.Context, a *acquisition, fence int64, start time.Time, wq *waitQueue) *Lock {
	o := a.o
	l := &Lock{
		client:         a.client,
		key:            a.key,
		token:          a.token,
		fence:          fence,
		ttl:            a.ttl,
		obs:            o.observer,
		releaseTimeout: o.releaseTimeout,
		backoff:        o.backoff,
		replicas:       o.replicas,
		wq:             wq,
		leaseEnd:       start.Add(a.ttl),
	}
	if a.late.abandoned {
		l.late = &a.late
	}
	// The lock outlives the acquire context (often a short wait timeout) but
	// keeps its values.
	l.parent = uncancelled(ctx)
	if wq != nil {
		wq.holds(l)
	}
	// The lease's end is watched by an alarm once something can see it:
	// the watchdog, an observer of losses, the process's other waiters,
	// or a caller of Context. Until then the methods check the time.
	if o.watchdog || o.observer.Lost != nil || wq != nil {
		l.mu.Lock()
		l.watchLease()
		l.mu.Unlock()
	}
	if o.watchdog {
		l.watched = true
		if o.maxHold > 0 {
			l.maxHoldEnd = start.Add(o.maxHold)
		}
		l.mu.Lock()
		l.startWatchdog()
		l.mu.Unlock()
	}
	return l
}

// startWatchdog is called with mu held.
func (l *Lock) startWatchdog() {
	var wctx context.Context
	wctx, l.stopWatchdog = context.WithCancel(l.parent)
	l.watchdogDone = make(chan struct{})
	go l.watchdog(wctx, l.context())
}

// context returns Context, making it if need be. Called with mu held.
func (l *Lock) context() context.Context {
	if l.ctx == nil {
		l.ctx, l.cancel = context.WithCancelCause(l.parent)
		if l.cause != nil {
			l.cancel(l.cause)
		}
	}
	return l.ctx
}

// end records why the lock can no longer be trusted and ends Context.
// Called with mu held.
func (l *Lock) end(cause error) {
	l.cause = cause
	if l.cancel != nil {
		l.cancel(cause)
	}
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
	l.mu.Lock()
	ranOut := l.watchLease()
	ctx := l.context()
	l.mu.Unlock()
	if ranOut {
		l.leaseRanOut()
	}
	return ctx
}

// watchLease sets the alarm that ends Context with the lease, if it is not
// set yet, and reports true instead when the lease has run out already.
// Called with mu held.
func (l *Lock) watchLease() (ranOut bool) {
	if l.leaseTimer != nil || l.state != held || l.cause != nil {
		return false
	}
	if !time.Now().Before(l.leaseEnd) {
		return true
	}
	l.leaseTimer = &l.lease
	l.lease.set(l.leaseEnd, l)
	return false
}

// fire is the lease alarm's.
func (l *Lock) fire() { l.leaseRanOut() }

// ranOut reports, without an alarm set, that the lease has ended.
// Called with mu held.
func (l *Lock) ranOut() bool {
	return l.leaseTimer == nil && !time.Now().Before(l.leaseEnd)
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
	err := refreshBounded(ctx, l.client, l.key, l.token, ttl, l.replicas)
	if errors.Is(err, ErrNotHeld) {
		l.lose(fmt.Errorf("%w: %q: renewal found %w", ErrLost, l.key, ErrNotHeld))
	}
	// Too few replicas: the primary extended the lease all the same.
	if err != nil && !errors.Is(err, ErrTooFewReplicas) {
		return fmt.Errorf("refresh %q: %w", l.key, err)
	}
	if err := l.extend(start.Add(ttl)); err != nil {
		if errors.Is(err, ErrLost) {
			l.leaseRanOut()
		}
		return fmt.Errorf("refresh %q: %w", l.key, err)
	}
	if err != nil {
		return fmt.Errorf("refresh %q: %w", l.key, err)
	}
	return nil
}

func (l *Lock) usable() error {
	l.mu.Lock()
	if l.state != held {
		l.mu.Unlock()
		return ErrNotHeld
	}
	ranOut := l.ranOut()
	l.mu.Unlock()
	if ranOut {
		l.leaseRanOut()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cause
}

func (l *Lock) extend(end time.Time) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.state != held {
		return ErrNotHeld
	}
	// An alarm that already fired has cancelled, or is about to cancel, the
	// context: the renewal came too late to trust.
	if l.cause != nil || l.ranOut() || l.leaseTimer != nil && !l.leaseTimer.reset(time.Until(end)) {
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
	if l.cause != nil || l.state != held {
		l.mu.Unlock()
		return
	}
	if l.leaseTimer != nil {
		l.leaseTimer.stop()
	}
	l.end(cause)
	l.mu.Unlock()
	if l.wq != nil {
		// The process's next waiter asks the server now.
		l.wq.holderGone(l)
	}
	l.obs.lost(l.parent, l.key, cause)
}

// Release deletes the key if this lock still owns it and returns ErrNotHeld
// if it does not. It stops the watchdog and cancels Context. Only the first
// call sends a command; later ones (and calls racing it) return ErrNotHeld,
// except that a call that failed may be retried. When the server refused
// the delete, the lock is held as before, its watchdog renewing again;
// when the delete was lost on the network it may have run, so Context
// ends (ErrLost) and nothing renews the lock, but a retried Release still
// deletes it if it is there. It ignores
// ctx's cancellation (it runs even when ctx is already done) and is
// bounded by the release timeout. A nil Lock returns ErrNotHeld.
func (l *Lock) Release(ctx context.Context) error {
	return l.release(ctx, false)
}

// release is Release; final says the caller gives the lock up whatever
// happens (Do): a release that fails then leaves the lock released all
// the same, its watchdog stopped, and the key's token lasts until the
// lease ends at the latest, with no command of the lock sent after.
func (l *Lock) release(ctx context.Context, final bool) error {
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
	timeout := l.releaseTimeout
	if l.late != nil {
		// The delete must follow anything the Obtain's last attempt set.
		start := time.Now()
		l.late.await(timeout / 2)
		timeout -= time.Since(start)
	}
	var path ReleasePath
	var err error
	// A lock taken with a single attempt has no queue of its own, but
	// waiters of this process may have queued for it since.
	wq := l.wq
	if wq == nil {
		wq = findQueue(l.client, l.key)
	}
	if wq != nil {
		path, err = wq.release(ctx, l, l.wq != nil, timeout)
	} else {
		path, err = releaseBounded(ctx, l.client, l.key, l.token, timeout)
	}

	l.mu.Lock()
	if err != nil && !errors.Is(err, ErrNotHeld) && !final {
		l.state = held
		ranOut := !time.Now().Before(l.leaseEnd)
		// A delete the server refused did not run: the lock is held as
		// before. One lost on the network may have run, so the lock can no
		// longer be trusted (another owner may have it now), though a
		// retried Release still deletes it if it did not.
		_, refused := serverError(err)
		if !ranOut && refused && l.watched {
			// Under mu, so that a Release retried at once stops this one.
			l.startWatchdog()
		}
		l.mu.Unlock()
		switch {
		case ranOut:
			l.lose(fmt.Errorf("%w: lease on %q ran out", ErrLost, l.key))
		case !refused:
			l.lose(fmt.Errorf("%w: %q: the release's outcome is unknown: %w", ErrLost, l.key, err))
		}
		return fmt.Errorf("release %q: %w", l.key, err)
	}
	l.state = released
	if l.leaseTimer != nil {
		l.leaseTimer.stop()
	}
	l.end(ErrReleased)
	l.mu.Unlock()
	if final && err != nil && !errors.Is(err, ErrNotHeld) && wq != nil {
		// The process's next waiter asks the server, which has the lock
		// until the lease ends at the latest.
		wq.holderGone(l)
	}

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

func (l *Lock) watchdog(ctx, lockCtx context.Context) {
	defer close(l.watchdogDone)
	t := time.NewTimer(l.renewTTL() / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-lockCtx.Done():
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
