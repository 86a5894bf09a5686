package lock

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// DefaultMaxHold bounds how long Do keeps renewing a lock when no
// WithWatchdog option says otherwise.
const DefaultMaxHold = 10 * time.Minute

// Do obtains key, renews it with a watchdog (WithWatchdog(DefaultMaxHold)
// unless opts give WithWatchdog or WithKeepAlive), runs fn under a context that ends when the lock is
// lost or ctx is done, and always releases. The result joins fn's error,
// the loss of the lock during fn (ErrLost) and the release error. When the
// release fails (the network), the lock is given up all the same: nothing
// renews it and Do sends no command of it after returning, so the key
// frees itself when its lease ends.
func Do(ctx context.Context, client Client, key string, ttl time.Duration, fn func(ctx context.Context) error, opts ...Option) error {
	if fn == nil {
		return fmt.Errorf("do %q: %w: nil function", key, ErrInvalidOption)
	}
	opts = append([]Option{WithWatchdog(DefaultMaxHold)}, opts...)
	l, err := Obtain(ctx, client, key, ttl, opts...)
	if err != nil {
		return err
	}
	fctx, cancel := context.WithCancelCause(l.Context())
	stop := context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
	fnErr := fn(fctx)
	stop()
	cancel(nil)

	var lost error
	if cause := context.Cause(l.Context()); errors.Is(cause, ErrLost) {
		lost = cause
	}
	// Do's caller holds nothing once it returns: a release that fails is
	// not retried, and the lock is not renewed after it.
	return errors.Join(fnErr, lost, l.release(ctx, true))
}
