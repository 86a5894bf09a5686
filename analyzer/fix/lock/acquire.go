package lock

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"
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
	// One allocation for the acquisition, its options, its first key and
	// the lock it makes, which holds its client, key and token.
	a := new(acquisition)
	a.lock.client, a.lock.key = client, key
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

	a.lock.token, a.ttl, a.keyBuf[0] = rand.Text(), ttl, key
	a.words.set(key, a.lock.token)
	a.keys = o.appendFenceKeys(a.keyBuf[:1])
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
	o := &a.opts
	maxAttempts := o.backoff.MaxAttempts
	if !waiting {
		maxAttempts = 1
	}
	direct := honoursContext(ctx, a.lock.client)
	var timer *time.Timer
	var t tries
	fail := func(attempts int, err error) (*Lock, error) {
		if t.maybeSet {
			err = fmt.Errorf("%w%s", err, a.remove(ctx, a.lock.key, a.lock.token))
		}
		err = t.inTransit(err)
		o.observer.acquired(ctx, a.lock.key, a.begin, attempts, err)
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
				a.late.reply(err != nil || len(res) > 0 && res[0] > 0, func() { _ = a.removeNow(ctx, a.lock.key, a.lock.token) })
			})
		}
		if inFlight || err != nil {
			t.cut(ctx, a.lock.client)
		}
		if inFlight {
			a.late.abandon()
			return fail(attempt, fmt.Errorf("obtain %q: %w: %w; the attempt in flight removes its token if it took the lock", a.lock.key, ErrNotObtained, err))
		}
		if err != nil {
			t.failed(err, start)
			// A cut-off attempt means the wait is over, even when ctx has
			// not yet said so: another attempt that took the lock now
			// could not keep Release's word, as the cut-off copy may
			// still set the token after the release.
			if !waiting || !transient(err) || maxAttempts > 0 && attempt >= maxAttempts || t.cutOff {
				return fail(attempt, t.giveUp(ctx, a.lock.key, err))
			}
			// A failover or a reset connection: try again within the wait.
			if !sleep(ctx, &timer, o.backoff.delay(attempt)) {
				return fail(attempt, fmt.Errorf("obtain %q: %w after %d attempts: %w (last: %w)", a.lock.key, ErrNotObtained, attempt, ctx.Err(), err))
			}
			continue
		}
		switch code := res[0]; {
		case code == -2:
			// Only a fence record that expired before the lock (its lease
			// was extended between the two copies of the command) gets
			// here: the fence is unknown, so the lock is no use.
			t.maybeSet = true
			return fail(attempt, fmt.Errorf("obtain %q: %w: the fence issued with the lock expired", a.lock.key, ErrNotObtained))
		case code > 0:
			o.observer.acquired(ctx, a.lock.key, a.begin, attempt, nil)
			return newLock(ctx, a, a.fence(code), t.leaseStart(start), nil), nil
		}
		o.observer.contended(ctx, a.lock.key, attempt)
		if maxAttempts > 0 && attempt >= maxAttempts {
			return fail(attempt, fmt.Errorf("obtain %q: %w after %d attempts", a.lock.key, ErrNotObtained, attempt))
		}
		if !sleep(ctx, &timer, o.backoff.delay(attempt)) {
			return fail(attempt, fmt.Errorf("obtain %q: %w after %d attempts: %w", a.lock.key, ErrNotObtained, attempt, ctx.Err()))
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
	// An attempt was cut off by the context on a client that ends commands
	// at their deadline: such a client may still send a command it gave up
	// on (its bytes were queued or in transit), so that attempt can set
	// the token later than any removal, or than the release of a lock
	// handed over meanwhile.
	cutOff bool
	// A hand-off to this waiter was cut off by its release's timeout: it
	// can set the token after a removal too, though not after the waiter's
	// own release (it replaces only the releaser's token).
	handOffInTransit bool
}

// cut records a failed attempt that ctx, now done, may have cut off on a
// client that ends commands at their deadline.
func (t *tries) cut(ctx context.Context, client Client) {
	if client.Info().Deadlines && ended(ctx) != nil {
		t.cutOff = true
	}
}

// ended is ctx's error, or DeadlineExceeded once its deadline has passed:
// a client's own timer may end a command a moment before ctx's does.
func ended(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}

// inTransit adds to the error of a failed Obtain that an attempt, or a
// hand-off, cut off may still reach the server.
func (t *tries) inTransit(err error) error {
	if !t.cutOff && !t.handOffInTransit {
		return err
	}
	return fmt.Errorf("%w; a command cut off by the context may still reach the server and set the token, "+
		"which then may remain until the lease ends", err)
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
	if cerr := ended(ctx); cerr != nil {
		return fmt.Errorf("obtain %q: %w: %w (%w)", key, ErrNotObtained, cerr, err)
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
	// Its client, key and token are its lock's (a.lock), set from the
	// start.
	ttl    time.Duration
	keys   []string  // the lock key, then the fence keys
	queue  string    // the server's waiter queue key when queueing
	begin  time.Time // of the wait, on the monotonic clock
	tried  bool      // an attempt was sent
	made   bool      // newLock made lock
	opts   options   // the options, applied to the defaults
	keyBuf [2]string // what keys starts in (a third, WithFenceKey's record, takes an allocation)
	words  lockWords // key and token boxed, for the commands of it and its lock
	// What a fenced attempt's result is read from.
	fenceRes [1]int64
	// An attempt left in flight, and its reply.
	late lateAttempt
	// The lock of a successful acquisition: newLock makes it here, and
	// sets made (a second lock would get an allocation of its own, its
	// client, key and token copied).
	lock Lock
}

// fence turns an acquire result into the lock's fence.
func (a *acquisition) fence(res int64) int64 {
	if a.opts.fencing {
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
		if short := a.opts.replicas.short(acks); short != nil {
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
	rep := a.opts.replicas
	first := !a.tried
	a.tried = true
	if len(a.keys) == 1 && entry == "" && first && rep.n == 0 {
		// The first attempt: SET NX PX replies OK when it takes the lock,
		// which a client reads faster than the null reply SET NX GET gives
		// then (go-redis classifies a null as an error). A key found taken
		// is read, to tell an earlier copy of this command (re-sent after
		// a lost reply) from another owner: a second round trip, on the
		// contended path only; later attempts of a wait send SET NX GET.
		ok, err := a.lock.client.Do(ctx, commandOf(&a.words, 1, 1, "SET", a.lock.key, a.lock.token, "NX", "PX", msWord(a.ttl)))
		if err != nil {
			return nil, ack{}, err
		}
		if ok != nil {
			return obtained, ack{}, nil
		}
		old, err := a.lock.client.Do(ctx, commandOf(&a.words, 1, 1, "GET", a.lock.key))
		if err != nil {
			return nil, ack{}, err
		}
		if old, _ := old.(string); old == a.lock.token {
			return obtained, ack{}, nil
		}
		return taken, ack{}, nil
	}
	if len(a.keys) == 1 && entry == "" {
		feats := featuresFor(ctx, a.lock.client, a.lock.key)
		if feats.tries(featSetNXGet, rep) {
			old, acks, err := rep.acked(ctx, a.lock.client, commandOf(&a.words, 1, 1, "SET", a.lock.key, a.lock.token, "NX", "PX", msWord(a.ttl), "GET"))
			switch {
			case err == nil && old == nil:
				feats.learn(featSetNXGet, true)
				return obtained, acks, nil
			case err == nil:
				feats.learn(featSetNXGet, true)
				if old, _ := old.(string); old == a.lock.token {
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
	if entry == "" && a.opts.fencing {
		r, acks, err := fencedScript.runAcked(ctx, a.lock.client, rep, &a.words, a.keys, a.lock.token, msWord(a.ttl))
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
	b := &a.opts.backoff
	r, acks, err := acquireScript.runAcked(ctx, a.lock.client, rep, &a.words, keys, a.lock.token, msWord(a.ttl), itoa(int64(len(a.keys)-1)), entry,
		itoa(b.grantTTL().Milliseconds()), itoa(b.queueTTL().Milliseconds()), siblingKey(a.lock.key, "wake"), publishMode(a.lock.client))
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
		_, err := compareAndDelete(rctx, a.lock.client, key, value, a.wordsOf(key, value))
		return err
	})
}

// removeWith runs a token removal as remove describes.
func (a *acquisition) removeWith(ctx context.Context, removal func(context.Context) error) string {
	rctx := detached(ctx, a.opts.releaseTimeout)
	op := func() (struct{}, error) { return struct{}{}, removal(rctx) }
	var wait context.Context = rctx
	direct := honoursContext(rctx, a.lock.client)
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
	rctx := detached(ctx, a.opts.releaseTimeout)
	defer rctx.stop()
	_, err := compareAndDelete(rctx, a.lock.client, key, value, a.wordsOf(key, value))
	return err
}

// wordsOf is a's words for a command on key and value, nil when they are
// not a's key and token.
func (a *acquisition) wordsOf(key, value string) *lockWords {
	if key == a.lock.key && value == a.lock.token {
		return &a.words
	}
	return nil
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
		if hashSlot(o.fenceKey) != hashSlot(key) {
			// An empty {} tag before the first non-empty one: no key can
			// be derived in the lock key's slot.
			return fmt.Errorf("%w: cannot derive a fence key in the slot of %q; give the key a {hash tag}", ErrCrossSlot, key)
		}
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

// queued waits in the queue of a's client and key until the lock is
// handed over or taken, or ctx ends.
func (a *acquisition) queued(ctx context.Context) (*Lock, error) {
	o := &a.opts
	wq, w := joinQueue(a)
	direct := honoursContext(ctx, a.lock.client)
	var (
		t        tries
		timer    *time.Timer
		attempts int
		// When the active waiter asks the server again unless woken
		// first; zero while it only waits to be woken.
		next time.Time
		// Consecutive transient errors, for their backoff.
		errs   int
		behind bool
	)
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	fail := func(err error) (*Lock, error) {
		wq.mu.Lock()
		if w.state == granted {
			wq.mu.Unlock()
			if t.cutOff {
				return a.giveUpHanded(ctx, wq, w, attempts, t.inTransit(err))
			}
			return a.handedOver(ctx, wq, w, attempts)
		}
		if w.state == handing {
			// The release that is handing over the lock passes it on.
			w.state = gone
		}
		if !w.maybeFrom.IsZero() {
			t.mightHaveSet(w.maybeFrom)
		}
		t.handOffInTransit = t.handOffInTransit || w.inTransit
		wq.remove(w)
		entry := ""
		if len(wq.waiters) == 0 && wq.entry != "" {
			entry = wq.entry
			wq.leftServer()
		}
		wq.activate()
		wq.mu.Unlock()
		if t.maybeSet {
			err = fmt.Errorf("%w%s", err, a.removeWith(ctx, func(rctx context.Context) error {
				_, err := wq.handoff(rctx, a.lock.token, nil, "", &o.backoff)
				return err
			}))
		}
		if entry != "" {
			wq.leave(ctx, entry, o)
		}
		wq.drop()
		err = t.inTransit(err)
		o.observer.acquired(ctx, a.lock.key, a.begin, attempts, err)
		return nil, err
	}
	for {
		wq.mu.Lock()
		state, active := w.state, wq.active == w
		check := active && w.check
		w.check = false
		if by := w.by; active && !by.IsZero() && (next.IsZero() || by.Before(next)) {
			next = by
		}
		w.by = time.Time{}
		if !w.maybeFrom.IsZero() {
			t.mightHaveSet(w.maybeFrom)
		}
		t.handOffInTransit = t.handOffInTransit || w.inTransit
		wq.mu.Unlock()
		if state == granted {
			if t.cutOff {
				return a.giveUpHanded(ctx, wq, w, attempts, t.inTransit(fmt.Errorf("obtain %q: %w: an attempt was cut off by the context", a.lock.key, ErrNotObtained)))
			}
			return a.handedOver(ctx, wq, w, attempts)
		}
		if !active {
			next = time.Time{}
		} else if !next.IsZero() && !time.Now().Before(next) {
			check = true
		}
		if check {
			attempts++
			entry := wq.entryID()
			start := time.Now()
			res, err, inFlight := bounded(ctx, direct, func() ([]int64, error) { return a.attempt(ctx, entry) }, func(res []int64, err error) {
				// Took the lock, or may have, after Obtain gave up.
				a.late.reply(err != nil || len(res) > 0 && res[0] > 0, func() {
					_ = a.removeWith(context.WithoutCancel(ctx), func(rctx context.Context) error {
						_, err := wq.handoff(rctx, a.lock.token, nil, "", &o.backoff)
						return err
					})
					wq.woken("")
				})
			})
			if inFlight || err != nil {
				t.cut(ctx, a.lock.client)
			}
			if inFlight {
				a.late.abandon()
				return fail(fmt.Errorf("obtain %q: %w: %w; the attempt in flight removes its token if it took the lock", a.lock.key, ErrNotObtained, err))
			}
			switch {
			case err != nil:
				t.failed(err, start)
				// As in poll: a cut-off attempt ends the wait.
				if !transient(err) || t.cutOff {
					return fail(t.giveUp(ctx, a.lock.key, err))
				}
				// A failover or a reset connection: try again within the wait.
				errs++
				next = time.Now().Add(o.backoff.delay(errs))
			case res[0] == -2:
				// Only a fence record that expired before the lock gets
				// here: the fence is unknown, so the lock is no use.
				t.maybeSet = true
				return fail(fmt.Errorf("obtain %q: %w: the fence issued with the lock expired", a.lock.key, ErrNotObtained))
			case res[0] > 0:
				from, ok := wq.claimed(w, t.leaseStart(start))
				if !ok {
					return a.handedOver(ctx, wq, w, attempts)
				}
				o.observer.acquired(ctx, a.lock.key, a.begin, attempts, nil)
				return newLock(ctx, a, a.fence(res[0]), from, wq), nil
			default:
				errs = 0
				o.observer.contended(ctx, a.lock.key, attempts)
				wq.listen()
				// Ask again when the lease the server reported ends, in case
				// its owner died, and at the latest after Cap, in case a
				// wake-up was missed.
				wait := o.backoff.Cap
				if len(res) > 1 && res[1] >= 0 {
					wait = min(wait, time.Duration(res[1]+1)*time.Millisecond)
				}
				next = time.Now().Add(wait)
			}
		} else if !active && !behind {
			// Queued behind a waiter or an owner of this process.
			behind = true
			o.observer.contended(ctx, a.lock.key, 1)
		}

		var fire <-chan time.Time
		if !next.IsZero() {
			d := time.Until(next)
			if timer == nil {
				timer = time.NewTimer(d)
			} else {
				timer.Reset(d)
			}
			fire = timer.C
		}
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return fail(fmt.Errorf("obtain %q: %w after %d attempts: %w", a.lock.key, ErrNotObtained, attempts, ctx.Err()))
		case <-w.ch:
			if timer != nil && !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
		case <-fire:
		}
	}
}

// giveUpHanded gives up the lock a release handed to w while an attempt
// of w's was cut off at the deadline: that attempt may still reach the
// server and set the token after the lock's release, so a lock returned
// now could not keep Release's word that its token is gone. The deadline
// has passed; the lock passes on (to the next waiter, or is deleted) and
// the Obtain fails with err, which says the token may remain.
func (a *acquisition) giveUpHanded(ctx context.Context, wq *waitQueue, w *waiter, attempts int, err error) (*Lock, error) {
	l := newLock(ctx, a, w.fence, w.start, wq)
	// An attempt still in flight is no longer this Obtain's.
	a.late.settle(nil)
	if rerr := l.release(ctx, true); rerr != nil && !errors.Is(rerr, ErrNotHeld) {
		err = fmt.Errorf("%w; giving up the lock handed over meanwhile: %v", err, rerr)
	} else {
		err = fmt.Errorf("%w; the lock handed over meanwhile was given up", err)
	}
	a.opts.observer.acquired(ctx, a.lock.key, a.begin, max(attempts, 1), err)
	return nil, err
}

// handedOver builds the lock a release handed to w. The release wrote it
// on the releaser's connection, so WithReplicas confirms it with an
// owner-checked renewal and its WAIT; one that falls short releases the
// lock again (to the next waiter).
func (a *acquisition) handedOver(ctx context.Context, wq *waitQueue, w *waiter, attempts int) (*Lock, error) {
	l := newLock(ctx, a, w.fence, w.start, wq)
	if a.opts.replicas.n > 0 {
		if err := l.refresh(ctx, a.ttl); err != nil {
			err = fmt.Errorf("obtain %q: %w: %w", a.lock.key, ErrNotObtained, err)
			// An attempt still in flight is no longer this Obtain's.
			a.late.settle(nil)
			if rerr := l.Release(ctx); rerr != nil && !errors.Is(rerr, ErrNotHeld) {
				err = fmt.Errorf("%w; releasing it: %v", err, rerr)
			}
			a.opts.observer.acquired(ctx, a.lock.key, a.begin, max(attempts, 1), err)
			return nil, err
		}
	}
	a.opts.observer.acquired(ctx, a.lock.key, a.begin, max(attempts, 1), nil)
	return l, nil
}
