package lock

import (
	"context"
	"crypto/rand"
	_ "embed"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

var (
	//go:embed scripts/handoff.lua
	handoffLua string
	//go:embed scripts/leave.lua
	leaveLua string

	handoffScript = newScript(handoffLua)
	leaveScript   = newScript(leaveLua)
)

// A waitQueue is where the callers of one process wait for one key through
// one client, first come first served. It keeps the server out of their
// turns: a release hands the lock to the next of them with one script
// (the lock key gets that waiter's token, and the waiter is woken in
// process), and only one of them, the active waiter, talks to the server
// while no waiter of the process holds the lock. Other processes are
// served through the queue on the server (see acquire.lua): the active
// waiter puts one entry for its process there, and a release that finds
// entries ahead of its own process's reserves the lock for the head and
// wakes it by pub/sub.
type waitQueue struct {
	client  Client
	key     string
	queue   string // the queue key on the server
	channel string // the wake-up channel
	sharded bool
	reg     queueKey // zero when the queue is not registered

	mu      sync.Mutex
	held    bool  // a waiter of this queue holds the lock, or is being handed it
	holder  *Lock // that lock, once built
	waiters []*waiter
	active  *waiter
	entry   string // this process's entry in the server's queue, "" if none
	sub     *hub   // the subscription that wakes the entry, while it is queued
}

type waiterState int

const (
	waiting waiterState = iota
	handing             // a release is handing it the lock
	granted
	gone // it gave up while a release was handing it the lock
)

type waiter struct {
	a     *acquisition
	ch    chan struct{} // something changed; buffered, never closed
	state waiterState
	// Set when granted: the fence, and the time the hand-off was sent (the
	// server's lease starts later).
	fence int64
	start time.Time
	// When the release handing it the lock sent its script.
	offered time.Time
	// A hand-off whose reply was lost may have set its token, no earlier
	// than this; inTransit says it may still reach the server (the
	// release's timeout cut it off).
	maybeFrom time.Time
	inTransit bool
	check     bool      // the active waiter must ask the server again
	by        time.Time // and no later than this, when not zero
}

func (w *waiter) notify() {
	select {
	case w.ch <- struct{}{}:
	default:
	}
}

// queueKey names a registered queue. Clients are compared as pointers;
// other client values get a queue of their own per Obtain.
type queueKey struct {
	client any
	key    string
}

var queues = struct {
	sync.Mutex
	m map[queueKey]*waitQueue
	n atomic.Int64 // len(m), read without the mutex
}{m: map[queueKey]*waitQueue{}}

func registrable(client Client) bool { return comparableClient(client) }

// joinQueue adds a waiter for a to the queue of its client and key.
func joinQueue(a *acquisition) (*waitQueue, *waiter) {
	w := &waiter{a: a, ch: make(chan struct{}, 1)}
	newQueue := func() *waitQueue {
		sharded := a.lock.client.Info().Cluster
		return &waitQueue{client: a.lock.client, key: a.lock.key, queue: a.queue, channel: siblingKey(a.lock.key, "wake"), sharded: sharded}
	}
	if !registrable(a.lock.client) {
		wq := newQueue()
		wq.add(w)
		return wq, w
	}
	k := queueKey{a.lock.client, a.lock.key}
	queues.Lock()
	defer queues.Unlock()
	wq := queues.m[k]
	if wq == nil {
		wq = newQueue()
		wq.reg = k
		queues.m[k] = wq
		queues.n.Add(1)
	}
	wq.add(w)
	return wq, w
}

// findQueue returns the registered queue of client and key, if any.
func findQueue(client Client, key string) *waitQueue {
	if queues.n.Load() == 0 || !registrable(client) {
		return nil
	}
	queues.Lock()
	defer queues.Unlock()
	return queues.m[queueKey{client, key}]
}

func (wq *waitQueue) add(w *waiter) {
	wq.mu.Lock()
	defer wq.mu.Unlock()
	wq.waiters = append(wq.waiters, w)
	wq.activate()
}

// activate makes the first waiter the active one when nobody of the
// process holds the lock. Called with mu held.
func (wq *waitQueue) activate() {
	if wq.held || wq.active != nil || len(wq.waiters) == 0 {
		return
	}
	wq.active = wq.waiters[0]
	wq.active.check = true
	wq.active.notify()
}

// remove takes w out of the waiters. Called with mu held.
func (wq *waitQueue) remove(w *waiter) {
	for i, x := range wq.waiters {
		if x == w {
			wq.waiters = append(wq.waiters[:i], wq.waiters[i+1:]...)
			break
		}
	}
	if wq.active == w {
		wq.active = nil
	}
}

// drop unregisters the queue once nothing uses it.
func (wq *waitQueue) drop() {
	if wq.reg == (queueKey{}) {
		return
	}
	queues.Lock()
	defer queues.Unlock()
	wq.mu.Lock()
	defer wq.mu.Unlock()
	if !wq.held && len(wq.waiters) == 0 && wq.entry == "" && queues.m[wq.reg] == wq {
		delete(queues.m, wq.reg)
		queues.n.Add(-1)
	}
}

// entryID returns this process's entry, making one if it has none.
func (wq *waitQueue) entryID() string {
	wq.mu.Lock()
	defer wq.mu.Unlock()
	if wq.entry == "" {
		wq.entry = "q" + rand.Text()
	}
	return wq.entry
}

// listen subscribes the queue to its wake-up channel while its entry is
// queued.
func (wq *waitQueue) listen() {
	wq.mu.Lock()
	defer wq.mu.Unlock()
	if wq.sub == nil && wq.entry != "" {
		wq.sub = listen(wq)
	}
}

// leftServer records that the process's entry is no longer queued (it got
// the lock, or left), and ends the subscription. Called with mu held.
func (wq *waitQueue) leftServer() {
	wq.entry = ""
	if wq.sub != nil {
		wq.sub.unlisten(wq)
		wq.sub = nil
	}
}

// woken is called by the subscription: payload is the entry the lock was
// reserved for, or "" when the subscription (re)started and any message
// may have been missed. A lock reserved for another process is claimed at
// once unless that process is gone; then the reservation lapses, and the
// active waiter asks again right after that.
func (wq *waitQueue) woken(payload string) {
	wq.mu.Lock()
	defer wq.mu.Unlock()
	w := wq.active
	if w == nil {
		return
	}
	if payload == "" || payload == wq.entry {
		w.check = true
	} else if by := time.Now().Add(w.a.opts.backoff.grantTTL() + time.Millisecond); w.by.IsZero() || by.Before(w.by) {
		w.by = by
	}
	w.notify()
}

// holderGone is called when l, obtained through the queue or released
// through it, is released or lost: the next waiter takes over.
func (wq *waitQueue) holderGone(l *Lock) {
	wq.mu.Lock()
	if wq.holder == l {
		wq.held, wq.holder = false, nil
	}
	wq.activate()
	wq.mu.Unlock()
	wq.drop()
}

// handoffResult is what the hand-off script reports.
const (
	handoffNotHeld  = 0
	handoffHanded   = 1
	handoffReleased = 2
	handoffReserved = 3
)

// release ends l, handing the lock to the process's next waiter when
// there is one (and no other process is queued first). fair says that l
// was obtained by a waiting caller, whose release must wake other
// processes' waiters even when this process has none; a lock taken with
// a single attempt and nobody of the process waiting is released as
// before.
func (wq *waitQueue) release(ctx context.Context, l *Lock, fair bool, timeout time.Duration) (ReleasePath, error) {
	rctx := detached(ctx, timeout)
	defer rctx.stop()
	token := l.token
	// After a hand-off to a waiter that gave up meanwhile, the release goes
	// on in that waiter's place; l's own release has then succeeded.
	passing := false
	for {
		wq.mu.Lock()
		var w *waiter
		for _, x := range wq.waiters {
			if x.state == waiting {
				w = x
				break
			}
		}
		sent := time.Now()
		if w != nil {
			w.state, w.offered = handing, sent
		}
		own := wq.entry
		wq.mu.Unlock()

		if w == nil && !fair && !passing {
			path, err := releaseBounded(ctx, l.client, l.key, token, nil, timeout)
			if err == nil || errors.Is(err, ErrNotHeld) {
				wq.holderGone(l)
			}
			return path, err
		}
		res, err := wq.handoff(rctx, token, w, own, &l.o.backoff)

		wq.mu.Lock()
		if err != nil {
			// The outcome is unknown: the lock stays l's as far as anyone
			// knows (a release may be retried, or the lease runs out), and
			// the waiter keeps waiting for it, knowing that its token may
			// be in the key from then on.
			if w != nil {
				if w.state == handing {
					w.state = waiting
				}
				if w.maybeFrom.IsZero() {
					w.maybeFrom = sent
				}
				if ended(rctx) != nil {
					// Cut off by the timeout: still in flight, or sent
					// after by a client that ends commands at their
					// deadline.
					w.inTransit = true
				}
			}
			if !passing {
				wq.mu.Unlock()
				return ReleaseLua, err
			}
			// The key keeps the gone waiter's token until its lease ends
			// at the latest; the next waiter takes over.
			if wq.holder == l {
				wq.held, wq.holder = false, nil
			}
			wq.activate()
			wq.mu.Unlock()
			wq.drop()
			return ReleaseLua, nil
		}
		switch res[0] {
		case handoffHanded:
			switch w.state {
			case gone:
				wq.mu.Unlock()
				token, passing = w.a.lock.token, true
				continue
			case granted:
				// The waiter's own attempt found its token first and took
				// the lock over itself.
				wq.mu.Unlock()
				return ReleaseLua, nil
			}
			w.state, w.start = granted, sent
			if w.a.opts.fencing {
				w.fence = res[1]
			}
			wq.remove(w)
			wq.held, wq.holder = true, nil // until the waiter has built its Lock
			if own != "" && wq.entry == own {
				// The process's entry headed the queue and is used up.
				wq.leftServer()
			}
			w.notify()
			wq.mu.Unlock()
			return ReleaseLua, nil
		case handoffReserved:
			// Another process goes first; the active waiter queues again.
			if wq.active != nil {
				wq.active.check = true
				wq.active.notify()
			}
		}
		if w != nil && w.state == handing {
			w.state = waiting
		}
		if wq.holder == l {
			wq.held, wq.holder = false, nil
		}
		wq.activate()
		wq.mu.Unlock()
		wq.drop()
		if res[0] == handoffNotHeld && !passing {
			return ReleaseLua, errGoneOnDelete
		}
		return ReleaseLua, nil
	}
}

// handoff runs the hand-off script for the owner of token, giving the
// lock to w (nil when the process has no waiter); own is the process's
// entry in the server's queue.
func (wq *waitQueue) handoff(ctx context.Context, token string, w *waiter, own string, b *Backoff) ([]int64, error) {
	keys := []string{wq.key, wq.queue}
	next, ttl := "", int64(0)
	if w != nil {
		next, ttl = w.a.lock.token, w.a.ttl.Milliseconds()
		keys = w.a.opts.appendFenceKeys(keys)
	}
	op := func() ([]int64, error) {
		return handoffScript.ints(ctx, wq.client, keys, token, next, itoa(ttl), own,
			itoa(b.grantTTL().Milliseconds()), itoa(b.queueTTL().Milliseconds()), wq.channel, wq.publishMode())
	}
	res, err, inFlight := bounded(ctx, honoursContext(ctx, wq.client), op, nil)
	if inFlight {
		return nil, fmt.Errorf("%w: the release may still run, its outcome unknown", err)
	}
	if err == nil && len(res) == 0 {
		err = errors.New("hand-off script returned nothing")
	}
	return res, err
}

func (wq *waitQueue) publishMode() string {
	if wq.sharded {
		return "s"
	}
	return "p"
}

// leave takes the process's entry out of the server's queue, passing on
// a lock reserved for it. It runs like the token removal of a failed
// attempt: detached for up to the release timeout, the caller waiting no
// longer than ctx's deadline.
func (wq *waitQueue) leave(ctx context.Context, entry string, o *options) {
	rctx := detached(ctx, o.releaseTimeout)
	op := func() (int64, error) {
		return leaveScript.int(rctx, wq.client, nil, []string{wq.key, wq.queue}, entry,
			itoa(o.backoff.grantTTL().Milliseconds()), itoa(o.backoff.queueTTL().Milliseconds()), wq.channel, wq.publishMode())
	}
	var wait context.Context = rctx
	direct := honoursContext(rctx, wq.client)
	if _, ok := ctx.Deadline(); ok {
		wait, direct = ctx, false
	}
	if _, _, inFlight := bounded(wait, direct, op, func(int64, error) { rctx.stop() }); !inFlight {
		rctx.stop()
	}
}

// holds records l, just obtained or handed over, as the queue's holder.
func (wq *waitQueue) holds(l *Lock) {
	wq.mu.Lock()
	wq.held, wq.holder = true, l
	wq.mu.Unlock()
}

// claimed takes w, whose own attempt begun at start just took the lock
// (or found its token), out of the waiters: the process holds the lock
// from now on. It reports false when a release handed w the lock first,
// and otherwise when the lease may have started, earlier than start if
// a hand-off to w is under way (its script may have set the token the
// attempt found).
func (wq *waitQueue) claimed(w *waiter, start time.Time) (time.Time, bool) {
	wq.mu.Lock()
	defer wq.mu.Unlock()
	if w.state == granted {
		return time.Time{}, false
	}
	if w.state == handing && w.offered.Before(start) {
		start = w.offered
	}
	// A release that is handing w the lock leaves it to w now.
	w.state = granted
	wq.remove(w)
	wq.held, wq.holder = true, nil
	wq.leftServer()
	return start, true
}

func publishMode(client Client) string {
	if client.Info().Cluster {
		return "s"
	}
	return "p"
}
