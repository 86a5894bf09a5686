package lock

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Lock is one acquisition of a key. Its identity (Key, Token, Fence) never
// changes; all methods are safe for concurrent use.
type Lock struct {
	client Client
	key    string
	token  string
	fence  int64
	words  *lockWords // key and token boxed, its acquisition's
	// The Obtain's options (observer, release timeout, backoff, replicas),
	// read only; the lock shares them rather than copying them.
	o *options
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

// newLock makes the Lock of a successful acquisition a, the server's lease
// starting no earlier than start; wq is the queue it was obtained
// through, if any, whose holder it becomes before its lease timer runs.
func newLock(ctx context.Context, a *acquisition, fence int64, start time.Time, wq *waitQueue) *Lock {
	o := &a.opts
	// The lock is made in its acquisition's allocation, which it keeps
	// alive anyway (it shares its options and words).
	l := &a.lock
	if a.made {
		l = new(Lock)
		l.client, l.key, l.token = a.lock.client, a.lock.key, a.lock.token
	}
	a.made = true
	l.words = &a.words
	l.fence, l.ttl, l.o, l.wq = fence, a.ttl, o, wq
	l.leaseEnd = start.Add(a.ttl)
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
	err := refreshBounded(ctx, l.client, l.key, l.token, l.words, ttl, l.o.replicas)
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
	l.o.observer.lost(l.parent, l.key, cause)
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
	timeout := l.o.releaseTimeout
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
		path, err = releaseBounded(ctx, l.client, l.key, l.token, l.words, timeout)
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

	l.o.observer.released(ctx, l.key, path, err == nil)
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
		l.o.observer.renewed(ctx, l.key, err)
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
