// Package handlers pins the held-out misses of a card game's handlers
// (chemistryuno's CreateRoom and InitiateDuel): the take's error is
// tested only against the not-acquired error, and a second test of it
// only chooses whether to defer the release, so a SETNX timeout or a
// reset connection runs the room's creation without the lock. The near
// misses return on every other error, or run the work only under the
// lock.
package handlers

import (
	"context"
	"errors"
	"time"

	"locklint.test/uncheckedacquire/regressions/deferchoice/cache"
)

var create = func(ctx context.Context, uid int) error { return nil }

// Must report: any error but the miss falls through into the work.
func CreateRoom(ctx context.Context, uid int) error {
	res := "room:create:" + string(rune(uid))
	token, lockErr := cache.AcquireLock(ctx, res, 10*time.Second) // want "only `cache\\.AcquireLock`'s not-obtained error is checked"
	if lockErr == cache.ErrLockNotAcquired {
		return errors.New("a previous request is still in progress")
	}
	if lockErr == nil {
		defer func() { _ = cache.ReleaseLock(context.Background(), res, token) }()
	}
	return create(ctx, uid)
}

// Must report: the same with errors.Is and a deferred call of its own.
func InitiateDuel(ctx context.Context, from, to int) error {
	res := "duel:" + string(rune(from)) + ":" + string(rune(to))
	token, err := cache.AcquireLock(ctx, res, 20*time.Second) // want "only `cache\\.AcquireLock`'s not-obtained error is checked"
	if errors.Is(err, cache.ErrLockNotAcquired) {
		return errors.New("invitation already sent")
	}
	if err == nil {
		defer cache.ReleaseLock(context.Background(), res, token)
	}
	return create(ctx, from)
}

// Near miss (silent): only the unavailable store, which the helper
// reports before sending anything, runs without the lock.
func CreateRoomDegraded(ctx context.Context, uid int) error {
	res := "room:create:" + string(rune(uid))
	token, lockErr := cache.AcquireLock(ctx, res, 10*time.Second)
	if lockErr == cache.ErrLockNotAcquired {
		return errors.New("a previous request is still in progress")
	}
	if lockErr != nil && lockErr != cache.ErrRedisUnavailable {
		return lockErr
	}
	if lockErr == nil {
		defer func() { _ = cache.ReleaseLock(context.Background(), res, token) }()
	}
	return create(ctx, uid)
}

// Near miss (silent): the work runs only in the branch that holds.
func CreateRoomHeld(ctx context.Context, uid int) error {
	res := "room:create:" + string(rune(uid))
	token, lockErr := cache.AcquireLock(ctx, res, 10*time.Second)
	if lockErr == cache.ErrLockNotAcquired {
		return errors.New("a previous request is still in progress")
	}
	if lockErr == nil {
		defer func() { _ = cache.ReleaseLock(context.Background(), res, token) }()
		return create(ctx, uid)
	}
	return lockErr
}
