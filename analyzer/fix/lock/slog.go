package lock

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// SlogObserver logs a lock's events to logger: acquisitions, contention
// and renewals at Debug, an acquisition that gave up at Info, a failed
// renewal and a release of a lock no longer held at Warn, and a lost lock
// at Error. Every record has the lock's key under "lock", and is logged
// with the context of the call it reports on, so a handler that reads
// trace or request ids from the context finds them.
func SlogObserver(logger *slog.Logger) *Observer {
	key := func(k string) slog.Attr { return slog.String("lock", k) }
	return &Observer{
		Acquired: func(ctx context.Context, k string, wait time.Duration, attempts int, err error) {
			attrs := []slog.Attr{key(k), slog.Duration("wait", wait), slog.Int("attempts", attempts)}
			switch {
			case err == nil:
				logger.LogAttrs(ctx, slog.LevelDebug, "lock acquired", attrs...)
			case errors.Is(err, ErrNotObtained):
				logger.LogAttrs(ctx, slog.LevelInfo, "lock not obtained", append(attrs, slog.Any("error", err))...)
			default:
				logger.LogAttrs(ctx, slog.LevelWarn, "lock acquisition failed", append(attrs, slog.Any("error", err))...)
			}
		},
		Contended: func(ctx context.Context, k string, attempt int) {
			logger.LogAttrs(ctx, slog.LevelDebug, "lock contended", key(k), slog.Int("attempt", attempt))
		},
		Renewed: func(ctx context.Context, k string, err error) {
			if err != nil {
				logger.LogAttrs(ctx, slog.LevelWarn, "lock renewal failed", key(k), slog.Any("error", err))
				return
			}
			logger.LogAttrs(ctx, slog.LevelDebug, "lock renewed", key(k))
		},
		Lost: func(ctx context.Context, k string, cause error) {
			logger.LogAttrs(ctx, slog.LevelError, "lock lost", key(k), slog.Any("cause", cause))
		},
		Released: func(ctx context.Context, k string, path ReleasePath, held bool) {
			if !held {
				logger.LogAttrs(ctx, slog.LevelWarn, "lock was not held at release", key(k), slog.String("path", string(path)))
				return
			}
			logger.LogAttrs(ctx, slog.LevelDebug, "lock released", key(k), slog.String("path", string(path)))
		},
	}
}
