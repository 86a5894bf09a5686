package lock

import (
	"container/heap"
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// An alarm calls its function once at a time, unless stopped first, like
// time.AfterFunc. All alarms share one runtime timer, armed for the
// earliest of them, because the library's deadlines are set on every
// call and nearly all are stopped long before they pass (a lock's lease,
// the bound on its release): a runtime timer that becomes the earliest of
// its P wakes a thread to watch it, which on loopback cost as much as a
// tenth of an acquire-and-release cycle. An alarm set later than the
// armed time, the usual case, touches no runtime timer; the timer fires
// about once per deadline length and is armed again for the earliest
// alarm left.
type alarm struct {
	at    time.Time // with a monotonic reading
	fn    firer
	index int // in alarms.pending; -1 when not pending
}

// A firer is what an alarm calls. An owner that embeds its alarm is its
// own firer, so that setting the alarm allocates nothing.
type firer interface{ fire() }

// fireFunc makes a function a firer.
type fireFunc func()

func (f fireFunc) fire() { f() }

var alarms struct {
	mu      sync.Mutex
	pending alarmHeap
	timer   *time.Timer
	armed   time.Time // when timer fires; zero when it is not armed
}

// setAlarm calls fn, on a goroutine of its own, after d.
func setAlarm(d time.Duration, fn func()) *alarm {
	a := new(alarm)
	a.set(time.Now().Add(d), fireFunc(fn))
	return a
}

// set makes a, which is not pending, call f.fire on a goroutine of its
// own at at.
func (a *alarm) set(at time.Time, f firer) {
	alarms.mu.Lock()
	a.fn, a.index = f, -1
	a.schedule(at)
	alarms.mu.Unlock()
}

// schedule queues a for at and arms the timer if a is now the earliest.
// Called with alarms.mu held.
func (a *alarm) schedule(at time.Time) {
	a.at = at
	heap.Push(&alarms.pending, a)
	if alarms.armed.IsZero() || at.Before(alarms.armed) {
		arm(at)
	}
}

func arm(at time.Time) {
	alarms.armed = at
	d := max(time.Until(at), 0)
	if alarms.timer == nil {
		alarms.timer = time.AfterFunc(d, ring)
	} else {
		alarms.timer.Reset(d)
	}
}

// stop keeps a from firing; it reports false if a had fired or been
// stopped already.
func (a *alarm) stop() bool {
	alarms.mu.Lock()
	defer alarms.mu.Unlock()
	if a.index < 0 {
		return false
	}
	heap.Remove(&alarms.pending, a.index)
	return true
}

// reset moves a to d from now, like time.Timer.Reset on a timer made by
// AfterFunc: it reports false, and schedules a again anyway, if a had
// fired or been stopped.
func (a *alarm) reset(d time.Duration) bool {
	alarms.mu.Lock()
	defer alarms.mu.Unlock()
	pending := a.index >= 0
	if pending {
		heap.Remove(&alarms.pending, a.index)
	}
	a.schedule(time.Now().Add(d))
	return pending
}

// ring runs when the timer fires: it starts the functions of the alarms
// that are due and arms the timer for the earliest left.
func ring() {
	alarms.mu.Lock()
	now := time.Now()
	var due []firer
	for len(alarms.pending) > 0 && !alarms.pending[0].at.After(now) {
		due = append(due, heap.Pop(&alarms.pending).(*alarm).fn)
	}
	alarms.armed = time.Time{}
	if len(alarms.pending) > 0 {
		arm(alarms.pending[0].at)
	}
	alarms.mu.Unlock()
	for _, f := range due {
		go f.fire()
	}
}

type alarmHeap []*alarm

func (h alarmHeap) Len() int           { return len(h) }
func (h alarmHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h alarmHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *alarmHeap) Push(x any) {
	a := x.(*alarm)
	a.index = len(*h)
	*h = append(*h, a)
}
func (h *alarmHeap) Pop() any {
	old := *h
	a := old[len(old)-1]
	old[len(old)-1] = nil
	a.index = -1
	*h = old[:len(old)-1]
	return a
}

// boundCtx is context.WithTimeout on an alarm: its deadline is what
// go-redis reads to bound socket I/O on a client with
// ContextTimeoutEnabled, and it is done, with context.DeadlineExceeded,
// when the alarm fires. It derives like any cancelable context (no
// goroutine per child). Its stop method is the CancelFunc.
//
// Over a parent that can be cancelled it is a cancel context of
// WithCancelCause, which ends with its parent. Over one that cannot (a
// release's, detached from its caller's cancellation, and most bounds of
// a wait) only its deadline and stop end it, and it is one allocation:
// it keeps its own Done channel, made when first asked for, and its
// children's functions (AfterFunc, which context's derivations call
// instead of starting a goroutine).
type boundCtx struct {
	context.Context                         // the cancel context of WithCancelCause; the parent alone
	cancel          context.CancelCauseFunc // nil alone
	// The alarm is set for the deadline, and its time is not changed
	// after (no bound is reset): Deadline reads it.
	alarm   alarm
	expired atomic.Bool
	// Nothing but the deadline ends it while it is in use: its parent
	// cannot be cancelled (stop is called only once it is done with).
	onlyDeadline bool

	// Alone, over a parent that cannot be cancelled: under mu, why it
	// ended (set once), its Done channel and its children's functions.
	mu     sync.Mutex
	err    error
	done   chan struct{}
	afters *afterFunc
}

// afterFunc is a function registered with boundCtx.AfterFunc, in a list.
type afterFunc struct {
	f    func()
	next *afterFunc
}

// withBound returns parent bounded by timeout; stop releases it.
func withBound(parent context.Context, timeout time.Duration) *boundCtx {
	c := new(boundCtx)
	deadline := time.Now().Add(timeout)
	if b, ok := parent.(*boundCtx); ok {
		c.onlyDeadline = b.onlyDeadline
	} else {
		_, ok := parent.Deadline()
		c.onlyDeadline = !ok && parent.Done() == nil
	}
	if parent.Done() == nil {
		c.Context = parent
	} else {
		c.Context, c.cancel = context.WithCancelCause(parent)
	}
	if d, ok := parent.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	c.alarm.set(deadline, c)
	return c
}

func (c *boundCtx) fire() {
	c.expired.Store(true)
	c.end(context.DeadlineExceeded)
}

func (c *boundCtx) stop() {
	c.alarm.stop()
	c.end(context.Canceled)
}

// end ends c with err, unless it has ended already.
func (c *boundCtx) end(err error) {
	if c.cancel != nil {
		c.cancel(err)
		return
	}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	if c.done != nil {
		close(c.done)
	}
	afters := c.afters
	c.afters = nil
	c.mu.Unlock()
	for a := afters; a != nil; a = a.next {
		go a.f()
	}
}

func (c *boundCtx) Deadline() (time.Time, bool) { return c.alarm.at, true }

// closed is the Done channel of a bound that ended before anyone asked.
var closed = func() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}()

func (c *boundCtx) Done() <-chan struct{} {
	if c.cancel != nil {
		return c.Context.Done()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		if c.err != nil {
			return closed
		}
		c.done = make(chan struct{})
	}
	return c.done
}

func (c *boundCtx) Err() error {
	if c.cancel == nil {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.err
	}
	err := c.Context.Err()
	if err != nil && c.expired.Load() {
		return context.DeadlineExceeded
	}
	return err
}

// AfterFunc arranges for f to run on a goroutine of its own once c ends,
// like context.AfterFunc, which context's derivations use: a child of c
// is cancelled with it without a goroutine of its own to wait for that.
func (c *boundCtx) AfterFunc(f func()) (stop func() bool) {
	if c.cancel != nil {
		return context.AfterFunc(c.Context, f)
	}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		go f()
		return func() bool { return false }
	}
	a := &afterFunc{f, c.afters}
	c.afters = a
	c.mu.Unlock()
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for p := &c.afters; *p != nil; p = &(*p).next {
			if *p == a {
				*p = a.next
				return true
			}
		}
		return false
	}
}

func (c *boundCtx) String() string { return "lock.bound" }
