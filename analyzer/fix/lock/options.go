package lock

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Option configures Obtain and Do.
type Option func(*options)

type options struct {
	fencing        bool
	wait           bool
	fair           bool
	watchdog       bool
	fenceKey       string
	fenceRecord    string
	maxWait        time.Duration
	backoff        Backoff
	maxHold        time.Duration
	releaseTimeout time.Duration
	observer       *Observer
	replicas       replicas
	err            error
}

// Backoff shapes the waits between the attempts of a polling wait
// (WithoutFairness) and the retries after transient errors: exponential
// from Base, capped at Cap, each wait drawn uniformly from [0, current)
// ("full jitter") so that waiters do not retry in lockstep. A queued
// waiter asks the server again at least every Cap, and a lock reserved
// for a queued process waits 250 ms plus ten Base for it (see Obtain).
type Backoff struct {
	Base time.Duration
	Cap  time.Duration
	// MaxAttempts bounds the attempts of a wait, which then polls rather
	// than queues (a queued waiter makes no attempts while it waits); zero
	// means until the wait runs out.
	MaxAttempts int
}

// DefaultBackoff returns the backoff used when WithBackoff is not given. It
// is a function, not a variable, so that no caller can change it under
// another's feet.
func DefaultBackoff() Backoff {
	return Backoff{Base: 10 * time.Millisecond, Cap: 500 * time.Millisecond}
}

// WithFencing makes Obtain issue a fence number: the acquire and the INCR of
// a per-resource counter run in one script, so every acquisition gets a
// number larger than all earlier ones. The counter key is derived from the
// lock key so that both hash to the same Cluster slot: a key with a hash tag
// gets ":fence" appended ("lock:{sku42}" -> "lock:{sku42}:fence"), a key
// without one is wrapped in a tag ("feed" -> "{feed}:fence"). The counter
// lives a day from its start, which sets it to the server's clock in
// microseconds, above the fences it issued before; the package
// documentation says on what assumption.
func WithFencing() Option {
	return func(o *options) { o.fencing = true }
}

// appendFenceKeys appends the keys an acquisition's fence takes: none
// without fencing, the counter, and the record of WithFenceKey.
func (o *options) appendFenceKeys(keys []string) []string {
	if !o.fencing {
		return keys
	}
	if keys = append(keys, o.fenceKey); o.fenceRecord != "" {
		keys = append(keys, o.fenceRecord)
	}
	return keys
}

// WithFenceKey is WithFencing with an explicit counter key, which gets the
// same TTL and restart as a derived one. Obtain fails with
// ErrCrossSlot, before sending anything, when key and the lock key hash to
// different Cluster slots; give both the same hash tag.
func WithFenceKey(key string) Option {
	return func(o *options) {
		if key == "" {
			o.fail(fmt.Errorf("%w: empty fence key", ErrInvalidKey))
		}
		o.fencing, o.fenceKey = true, key
	}
}

// WithMaxWait lets Obtain retry for up to d (no later than the context's
// deadline). Without it or WithWait, Obtain makes exactly one attempt.
func WithMaxWait(d time.Duration) Option {
	return func(o *options) {
		if d <= 0 {
			o.fail(fmt.Errorf("%w: max wait %s", ErrInvalidOption, d))
		}
		o.maxWait = d
	}
}

// WithWait lets Obtain retry until the context's deadline; a context
// without one is ErrInvalidOption, so no wait is unbounded.
func WithWait() Option {
	return func(o *options) { o.wait = true }
}

// WithBackoff replaces DefaultBackoff.
func WithBackoff(b Backoff) Option {
	return func(o *options) {
		if b.Base <= 0 || b.Cap < b.Base || b.MaxAttempts < 0 {
			o.fail(fmt.Errorf("%w: backoff %+v", ErrInvalidOption, b))
		}
		o.backoff = b
	}
}

// WithoutFairness makes a waiting Obtain poll, as bsm/redislock does,
// instead of queueing (see Obtain): no queue on the server or in
// process, and no pub/sub, at the cost of letting the latest releaser win
// most races under contention and of a poll every Backoff delay.
func WithoutFairness() Option {
	return func(o *options) { o.fair = false }
}

// WithWatchdog renews the lease every ttl/3 until Release, for at most
// maxHold in total from the start of the acquisition; after that the lease
// runs out and the lock's Context is cancelled with ErrLost. A maxHold
// shorter than the TTL is ErrInvalidOption.
func WithWatchdog(maxHold time.Duration) Option {
	return func(o *options) {
		if maxHold <= 0 {
			o.fail(fmt.Errorf("%w: watchdog max hold %s", ErrInvalidOption, maxHold))
		}
		o.watchdog, o.maxHold = true, maxHold
	}
}

// WithKeepAlive renews the lease every ttl/3 for as long as the lock is
// held, with no maximum hold: for a leader that leads while it is alive.
// Renewal stops at Release, when a renewal finds the key gone or the local
// lease runs out (the lock's Context then ends with ErrLost), and never
// outlives the process, so a crashed holder's lease still expires.
// WithKeepAlive and WithWatchdog replace each other; the last one given
// counts (Do's default maximum hold included).
func WithKeepAlive() Option {
	return func(o *options) { o.watchdog, o.maxHold = true, 0 }
}

// WithReleaseTimeout replaces DefaultReleaseTimeout for the lock's Release.
func WithReleaseTimeout(d time.Duration) Option {
	return func(o *options) {
		if d <= 0 {
			o.fail(fmt.Errorf("%w: release timeout %s", ErrInvalidOption, d))
		}
		o.releaseTimeout = d
	}
}

// WithObserver reports the lock's events to obs.
func WithObserver(obs *Observer) Option {
	return func(o *options) { o.observer = obs }
}

func (o *options) fail(err error) {
	if o.err == nil {
		o.err = err
	}
}

// init sets o to the defaults with opts applied.
func (o *options) init(opts []Option) {
	*o = options{backoff: DefaultBackoff(), fair: true, releaseTimeout: DefaultReleaseTimeout}
	for _, opt := range opts {
		if opt != nil {
			opt(o)
		}
	}
	if o.observer == nil {
		o.observer = noObserver
	}
}

// noObserver has no hooks; it is never written to.
var noObserver = &Observer{}

// delay returns the wait before attempt+1 of a polling wait, or after a
// transient error.
func (b Backoff) delay(attempt int) time.Duration {
	limit := b.Cap
	if attempt < 32 {
		if d := b.Base << (attempt - 1); d > 0 && d < b.Cap {
			limit = d
		}
	}
	return rand.N(limit) + 1
}

// grantTTL is how long a lock reserved for the head of the server's
// queue waits for it to claim it: long enough for a slow claim, short
// enough that a process that vanished holds a free lock back only briefly.
func (b Backoff) grantTTL() time.Duration {
	return 250*time.Millisecond + 10*b.Base
}

// queueTTL is how long the server's queue outlives its last change. A
// queued process asks the server again at least every Cap, which keeps
// the queue alive while anyone waits.
func (b Backoff) queueTTL() time.Duration {
	return 4*b.Cap + b.grantTTL()
}
