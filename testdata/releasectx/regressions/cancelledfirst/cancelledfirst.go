// Package cancelledfirst pins a refresh guarded by a lock from another
// package's AcquireLock, which hands back a release bound to the
// context it is given: the caller gives it a 2 s timeout of its own to
// bound the acquire and cancels that context right after the acquire,
// then defers the release, which always runs under the cancelled
// context, fails without being sent, and leaves the lock for its TTL.
// Reported at the acquire. The near misses cancel with a defer after
// the release is deferred (the release runs first), or give the
// acquire a context the caller does not cancel.
package cancelledfirst

import (
	"context"
	"time"

	"locklint.test/releasectx/regressions/cancelledfirst/cache"
)

type Service struct {
	cache *cache.Client
	id    string
}

// Must report: the acquire's context is cancelled before the release runs.
func (s *Service) Refresh(ctx context.Context, fetch func()) error {
	lockCtx, lockCancel := context.WithTimeout(ctx, 2*time.Second)
	release, err := s.cache.AcquireLock(lockCtx, "refresh:lock", s.id, 10*time.Second) // want "the release `s\\.cache\\.AcquireLock` hands back runs under `lockCtx`, cancelled on line 28 before it runs"
	lockCancel()
	if err != nil {
		return err
	}
	defer func() { _ = release() }()
	fetch()
	return nil
}

// Near miss (silent): the cancel is deferred after the release, so the
// release runs first.
func (s *Service) RefreshDeferred(ctx context.Context, fetch func()) error {
	lockCtx, lockCancel := context.WithTimeout(ctx, 30*time.Second)
	defer lockCancel()
	release, err := s.cache.AcquireLock(lockCtx, "refresh2:lock", s.id, 10*time.Second)
	if err != nil {
		return err
	}
	defer func() { _ = release() }()
	fetch()
	return nil
}

// Near miss (silent): the acquire runs under a context nobody cancels.
func (s *Service) RefreshBackground(fetch func()) error {
	release, err := s.cache.AcquireLock(context.Background(), "refresh3:lock", s.id, 10*time.Second)
	if err != nil {
		return err
	}
	defer func() { _ = release() }()
	fetch()
	return nil
}
