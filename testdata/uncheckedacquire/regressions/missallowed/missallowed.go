// Package missallowed pins an acquire known by the error it is compared
// with: a service's own lock interface, implemented in a package this one
// does not import, whose Lock returns bsm/redislock's ErrNotObtained when
// the lock is held. A test that returns on every other error lets the
// miss into the reload beside the holder: reported, as it is for
// redislock's own Obtain. The near misses return on the miss too, or
// never name the not-obtained error, or the call runs the work itself.
package missallowed

import (
	"context"
	"errors"
	"time"

	"github.com/bsm/redislock"
)

type DataLock interface {
	Lock(ctx context.Context) error
	UnLock(ctx context.Context) error
}

// Runner runs the work itself while it holds the lock.
type Runner interface {
	WithLock(ctx context.Context, key string, work func(context.Context) error) error
}

type Repo interface {
	Locker(ctx context.Context, key string, ttl time.Duration) (DataLock, error)
}

func reload(ctx context.Context, repo Repo, load func(context.Context) error) (err error) {
	lock, err := repo.Locker(ctx, "blacklist:lock", 10*time.Second)
	if err != nil {
		return err
	}
	if err = lock.Lock(ctx); err != nil && err != redislock.ErrNotObtained { // want "`lock.Lock`'s not-obtained error is let through: only its other errors return"
		return err
	}
	defer lock.UnLock(ctx)
	return load(ctx)
}

func obtain(ctx context.Context, client *redislock.Client, load func(context.Context) error) error {
	l, err := client.Obtain(ctx, "blacklist:lock", 10*time.Second, nil) // want "`client.Obtain`'s not-obtained error is let through"
	if err != nil && !errors.Is(err, redislock.ErrNotObtained) {
		return err
	}
	defer l.Release(ctx)
	return load(ctx)
}

// Near miss: the miss returns too, quietly.
func reloadChecked(ctx context.Context, repo Repo, load func(context.Context) error) error {
	lock, err := repo.Locker(ctx, "blacklist:lock", 10*time.Second)
	if err != nil {
		return err
	}
	if err := lock.Lock(ctx); err != nil {
		if errors.Is(err, redislock.ErrNotObtained) {
			return nil
		}
		return err
	}
	defer lock.UnLock(ctx)
	return load(ctx)
}

// Near miss: nothing names the not-obtained error; every error returns.
func reloadPlain(ctx context.Context, repo Repo, load func(context.Context) error) error {
	lock, err := repo.Locker(ctx, "blacklist:lock", 10*time.Second)
	if err != nil {
		return err
	}
	if err := lock.Lock(ctx); err != nil {
		return err
	}
	defer lock.UnLock(ctx)
	return load(ctx)
}

// Near miss: the call runs the work itself; its not-obtained error says
// the work did not run, and a periodic job skips the round.
func sweepRound(ctx context.Context, r Runner, sweep, next func(context.Context) error) error {
	err := r.WithLock(ctx, "sweep:lock", sweep)
	if err != nil && !errors.Is(err, redislock.ErrNotObtained) {
		return err
	}
	return next(ctx)
}
