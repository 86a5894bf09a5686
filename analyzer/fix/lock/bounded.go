package lock

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

var inFlight atomic.Int64

// InFlight returns how many commands the library has stopped waiting for
// (a deadline cut them off) that are still running on their own goroutine
// until the client gives up on them, cleanups of cut-off acquires
// included. It is zero on a healthy network; export it as a gauge to see a
// stalled one.
func InFlight() int { return int(inFlight.Load()) }

// bounded runs op and returns its result, or wait's error once wait is
// done, whichever comes first (then abandoned is true), so that no call outlives the deadline it
// documents even on a client that ignores context deadlines for socket
// I/O. A command still in flight when wait ends keeps its goroutine until
// the client gives up on it (its ReadTimeout; go-redis does not start a
// retry once the command's context is done) and then hands its outcome to
// late, which runs on that goroutine; late may be nil.
//
// direct says that op is bounded by wait already (the client honours the
// deadline of the context op runs under, and that context ends no later
// than wait): then op runs on the caller's goroutine.
func bounded[T any](wait context.Context, direct bool, op func() (T, error), late func(T, error)) (v T, err error, abandoned bool) {
	if direct || wait.Done() == nil {
		v, err = op()
		return v, err, false
	}
	b := &boundedOp[T]{op: op, late: late, done: make(chan struct{})}
	start(b)
	select {
	case <-b.done:
		return b.v, b.err, false
	case <-wait.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-b.done:
		return b.v, b.err, false
	default:
		b.gone = true
		inFlight.Add(1)
		return v, wait.Err(), true
	}
}

// boundedOp is what bounded shares with the goroutine that runs op: one
// allocation besides the channel and the goroutine's.
type boundedOp[T any] struct {
	op   func() (T, error)
	late func(T, error)
	mu   sync.Mutex
	gone bool // under mu: bounded stopped waiting
	// Set before done is closed, by a result bounded still waits for.
	v    T
	err  error
	done chan struct{}
}

func (b *boundedOp[T]) run() {
	v, err := b.op()
	b.mu.Lock()
	abandoned := b.gone
	if !abandoned {
		b.v, b.err = v, err
		close(b.done)
	}
	b.mu.Unlock()
	if abandoned {
		if b.late != nil {
			b.late(v, err)
		}
		inFlight.Add(-1)
	}
}

// Ops run on kept goroutines. A new goroutine starts on a small stack
// that a client's call path outgrows, and copying it to a larger one on
// every command cost more CPU than the rest of a loopback round trip; a
// kept goroutine has grown its stack once. A worker left idle for
// idleWorker exits.
const idleWorker = 5 * time.Second

// idleWorkerTest, when not zero, replaces idleWorker (in nanoseconds), so
// that a test need not wait 5 s for a worker to exit.
var idleWorkerTest atomic.Int64

func idleTime() time.Duration {
	if d := idleWorkerTest.Load(); d != 0 {
		return time.Duration(d)
	}
	return idleWorker
}

// runner is an op bounded hands to a worker.
type runner interface{ run() }

// handOff gives an op to a worker waiting for one.
var handOff = make(chan runner)

// start runs r on an idle worker, or on a new one when none is idle.
func start(r runner) {
	select {
	case handOff <- r:
	default:
		go worker(r)
	}
}

func worker(r runner) {
	t := time.NewTimer(idleTime())
	defer t.Stop()
	for {
		r.run()
		r = nil
		t.Reset(idleTime())
		select {
		case r = <-handOff:
		case <-t.C:
			return
		}
	}
}
