package lock

import (
	"context"
	"time"
)

// Observer receives a lock's events, for metrics, traces and logs; any
// field may be nil. The functions run synchronously on the lock's
// goroutines and must return quickly. Each gets a context that carries the
// values of the call it reports on (a span, a request id): Obtain's for
// Acquired and Contended, Release's for Released, and for Renewed and Lost,
// which happen later on the lock's own goroutines, Obtain's without its
// cancellation. A panic in a hook is recovered and dropped: it cannot
// break the lock operation it reports on.
type Observer struct {
	// Acquired is called once per Obtain: the time spent, the attempts made
	// and the outcome (nil when the lock was obtained).
	Acquired func(ctx context.Context, key string, wait time.Duration, attempts int, err error)
	// Contended is called for each attempt that found the lock taken.
	Contended func(ctx context.Context, key string, attempt int)
	// Renewed is called for each watchdog renewal, with its error.
	Renewed func(ctx context.Context, key string, err error)
	// Lost is called once when the lock's Context ends with ErrLost.
	Lost func(ctx context.Context, key string, cause error)
	// Released is called after an owner-checked delete, with the command
	// that ran and whether the lock was still held.
	Released func(ctx context.Context, key string, path ReleasePath, held bool)
}

// safely runs a hook; a panic in it stays there.
func safely(hook func()) {
	defer func() { _ = recover() }()
	hook()
}

// acquired reports an Obtain that began at begin; the clock is read only
// for a hook.
func (o *Observer) acquired(ctx context.Context, key string, begin time.Time, attempts int, err error) {
	if o.Acquired != nil {
		wait := time.Since(begin)
		safely(func() { o.Acquired(ctx, key, wait, attempts, err) })
	}
}

func (o *Observer) contended(ctx context.Context, key string, attempt int) {
	if o.Contended != nil {
		safely(func() { o.Contended(ctx, key, attempt) })
	}
}

func (o *Observer) renewed(ctx context.Context, key string, err error) {
	if o.Renewed != nil {
		safely(func() { o.Renewed(ctx, key, err) })
	}
}

func (o *Observer) lost(ctx context.Context, key string, cause error) {
	if o.Lost != nil {
		safely(func() { o.Lost(ctx, key, cause) })
	}
}

func (o *Observer) released(ctx context.Context, key string, path ReleasePath, held bool) {
	if o.Released != nil {
		safely(func() { o.Released(ctx, key, path, held) })
	}
}
