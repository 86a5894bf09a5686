package lock

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// replicas is what WithReplicas asks for; n == 0 asks nothing.
type replicas struct {
	n       int
	timeout time.Duration
	aof     bool // WAITAOF: acknowledged once in the replicas' append-only files
}

// WithReplicas makes Obtain, Refresh and the watchdog's renewals wait, on
// the connection that wrote the lock and in the same round trip, until n
// replicas have received the write (WAIT n timeout). An Obtain that
// gets fewer acknowledgments within timeout releases the lock and fails
// with an error matching ErrTooFewReplicas and ErrNotObtained; a renewal
// that gets fewer has extended the lease on the primary, keeps the lock,
// and returns ErrTooFewReplicas (the watchdog tries again soon).
//
// It narrows, and does not close, the window in which a failover loses a
// lock: WAIT is no consensus. A replica that acknowledged can still lose
// the write (it restarts without persistence, or is not the one promoted),
// and a failover between the write and the acknowledgment loses it as
// before. Fencing remains the protection that holds (see WithFencing).
// A lock handed over by a release is confirmed by the new owner with an
// owner-checked renewal and its WAIT, one more round trip.
//
// n must be at least 1 and timeout at least a millisecond and shorter
// than the lock's TTL: WAIT 0 would block without bound.
func WithReplicas(n int, timeout time.Duration) Option {
	return func(o *options) {
		if n < 1 || timeout < time.Millisecond {
			o.fail(fmt.Errorf("%w: replicas %d within %s", ErrInvalidOption, n, timeout))
		}
		o.replicas = replicas{n: n, timeout: timeout.Truncate(time.Millisecond)}
	}
}

// WithFsyncedReplicas is WithReplicas counting only replicas that have
// written the lock to their append-only file (WAITAOF 0 n timeout, Redis
// 7.2 and later, replicas with appendonly yes). A server without WAITAOF
// fails the call with its error; replicas without AOF never acknowledge.
func WithFsyncedReplicas(n int, timeout time.Duration) Option {
	return func(o *options) {
		WithReplicas(n, timeout)(o)
		o.replicas.aof = true
	}
}

func (r replicas) command() Command {
	ms := strconv.FormatInt(r.timeout.Milliseconds(), 10)
	if r.aof {
		return command(4, 0, "WAITAOF", "0", strconv.Itoa(r.n), ms)
	}
	return command(3, 0, "WAIT", strconv.Itoa(r.n), ms)
}

// acked sends cmd and, when replicas are asked for, the WAIT after it on
// the same connection, and returns cmd's reply and an acknowledgment that
// short turns into an error. A WAIT that failed (a server without
// WAITAOF) acknowledges nothing; err is cmd's own error only.
func (r replicas) acked(ctx context.Context, c Client, cmd Command) (any, ack, error) {
	if r.n == 0 {
		v, err := c.Do(ctx, cmd)
		return v, ack{}, err
	}
	replies, err := c.Pipeline(ctx, cmd, r.command())
	if err != nil {
		return nil, ack{}, err
	}
	if len(replies) != 2 {
		// The command may have run.
		return nil, ack{}, fmt.Errorf("pipeline returned %d replies for 2 commands", len(replies))
	}
	if err, ok := replies[0].(error); ok {
		return nil, ack{}, err
	}
	if err, ok := replies[1].(error); ok {
		return replies[0], ack{err: err}, nil
	}
	n, err := r.count(replies[1])
	return replies[0], ack{n: n, err: err}, nil
}

// ack is the outcome of a WAIT: the replicas that acknowledged, or why
// none could be counted.
type ack struct {
	n   int
	err error
}

// count reads WAIT's reply (the replicas) or WAITAOF's (local, replicas).
func (r replicas) count(v any) (int, error) {
	if a, ok := v.([]any); ok && r.aof && len(a) == 2 {
		v = a[1]
	}
	n, ok := v.(int64)
	if !ok {
		return 0, fmt.Errorf("%s reply: got %T, want an integer", r.command().Head[0], v)
	}
	return int(n), nil
}

// short reports an acknowledgment below what was asked for, as an error.
func (r replicas) short(a ack) error {
	switch {
	case r.n == 0:
		return nil
	case a.err != nil:
		return fmt.Errorf("%w: %s failed: %v", ErrTooFewReplicas, r.command().Head[0], a.err)
	case a.n >= r.n:
		return nil
	}
	name := "replicas"
	if r.aof {
		name = "replicas' append-only files"
	}
	return fmt.Errorf("%w: %d of %d %s within %s", ErrTooFewReplicas, a.n, r.n, name, r.timeout)
}

// runAcked is script.run followed by the WAIT of r on its connection. With
// a WAIT it sends the script's source, never its hash: a NOSCRIPT reply
// would have the WAIT block for its whole timeout and the retry wait once
// more, twice the bound WithReplicas documents.
func (s *script) runAcked(ctx context.Context, c Client, r replicas, lw *lockWords, keys []string, args ...string) (any, ack, error) {
	if r.n > 0 {
		return r.acked(ctx, c, s.command(true, lw, keys, args))
	}
	v, acks, err := r.acked(ctx, c, s.command(false, lw, keys, args))
	if isNoScript(err) {
		v, acks, err = r.acked(ctx, c, s.command(true, lw, keys, args))
	}
	return v, acks, err
}
