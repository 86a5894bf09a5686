// Package hooks pins acquires whose reply is read but not acted on: when
// the lock is held elsewhere the event is re-enqueued, and then the
// handler goes on to process it anyway, with the deferred release that
// deletes the holder's lock. The near misses return after re-enqueueing,
// or only work inside the branch that took the lock.
package hooks

import (
	"context"
	"log"
	"time"

	"locklint.test/uncheckedacquire/regressions/fallthrough/cache"
)

type dao struct {
	store cache.Store
}

func eventLockKey(id string) string { return "hooks:event:lock:" + id }

func (d *dao) LockEvent(id string) (bool, error) {
	key := eventLockKey(id)
	return d.store.Lock(key, 30*time.Second, 200, 60)
}

func (d *dao) UnlockEvent(id string) error {
	return d.store.Unlock(eventLockKey(id))
}

type Service struct {
	Dao   *dao
	Store cache.Store
}

func process(ctx context.Context, id string) error { return nil }

// Must report: on a miss the event is re-enqueued, then processed anyway.
func (s *Service) dequeueEvent(ctx context.Context, id string) error {
	b, err := s.Dao.LockEvent(id) // want "falls through into the work"
	if err != nil {
		return err
	}
	defer s.Dao.UnlockEvent(id)

	if !b {
		// reenqueue
		if err := s.Store.Enqueue("events", id); err != nil {
			return err
		}
	}
	err = process(ctx, id)
	return err
}

// Must report: the store's own Lock, the same shape.
func (s *Service) dispatch(ctx context.Context, id string) error {
	locked, err := s.Store.Lock("dispatch:lock:"+id, time.Minute, 100, 15) // want "falls through into the work"
	if err != nil {
		return err
	}
	if !locked {
		_ = s.Store.Enqueue("dispatch", id)
	}
	defer s.Store.Unlock("dispatch:lock:" + id)
	return process(ctx, id)
}

// Near miss (silent): the miss branch returns after re-enqueueing.
func (s *Service) dequeueEventChecked(ctx context.Context, id string) error {
	b, err := s.Dao.LockEvent(id)
	if err != nil {
		return err
	}
	if !b {
		return s.Store.Enqueue("events", id)
	}
	defer s.Dao.UnlockEvent(id)
	return process(ctx, id)
}

// Near miss (silent): the work is in the branch that took the lock.
func (s *Service) dispatchInside(ctx context.Context, id string) error {
	locked, err := s.Store.Lock("dispatch:lock:"+id, time.Minute, 100, 15)
	if err != nil {
		return err
	}
	if locked {
		defer s.Store.Unlock("dispatch:lock:" + id)
		return process(ctx, id)
	}
	return nil
}

// Near miss (silent): the miss branch waits in a loop until it gets the
// lock.
func (s *Service) dispatchLoop(ctx context.Context, id string) error {
	for {
		locked, err := s.Store.Lock("dispatch:lock:"+id, time.Minute, 100, 15)
		if err != nil {
			return err
		}
		if !locked {
			time.Sleep(time.Second)
			continue
		}
		defer s.Store.Unlock("dispatch:lock:" + id)
		return process(ctx, id)
	}
}

// Must report: the reply only decides whether to release; the event is
// dispatched either way.
func (s *Service) gerrit(ctx context.Context, id string) {
	locked, err := s.Store.Lock("gerrit:event:lock", time.Minute, 100, 15) // want "only decides whether to release"
	if err != nil {
		log.Printf("gerrit: unable to lock: %v", err)
	}
	_ = process(ctx, id)
	if locked {
		if err := s.Store.Unlock("gerrit:event:lock"); err != nil {
			log.Printf("gerrit: unable to unlock: %v", err)
		}
	}
}

// Near miss (silent): the work is in the branch that took the lock, with
// the release after it.
func (s *Service) gerritInside(ctx context.Context, id string) {
	locked, err := s.Store.Lock("gerrit:event:lock", time.Minute, 100, 15)
	if err != nil {
		log.Printf("gerrit: unable to lock: %v", err)
	}
	if locked {
		_ = process(ctx, id)
		if err := s.Store.Unlock("gerrit:event:lock"); err != nil {
			log.Printf("gerrit: unable to unlock: %v", err)
		}
	}
}

// Near miss (silent): the dao's wrapper, its miss branch returning.
func (s *Service) dequeueEventReturn(ctx context.Context, id string) error {
	b, err := s.Dao.LockEvent(id)
	if err != nil {
		return err
	}
	defer s.Dao.UnlockEvent(id)
	if !b {
		_ = s.Store.Enqueue("events", id)
		return nil
	}
	return process(ctx, id)
}
