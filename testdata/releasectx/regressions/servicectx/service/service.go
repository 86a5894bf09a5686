// Package service takes its locks in methods that the handlers call with
// their request's context. Each release deferred under that context
// parameter says nothing here of when the context ends; the handlers'
// calls do (package handler).
package service

import (
	"context"
	"errors"
	"time"

	"locklint.test/releasectx/regressions/servicectx/lock"
)

var ErrBusy = errors.New("busy")

type Service struct{ lock lock.Locker }

// Booker is what the handlers hold; Service is its one implementation.
type Booker interface {
	Book(ctx context.Context, room string) error // want Book:"defers a release under parameter 0 at service.go:36"
}

func New(l lock.Locker) *Service { return &Service{lock: l} }

// The release deferred under the context the caller gives.
func (s *Service) Book(ctx context.Context, room string) error { // want Book:"defers a release under parameter 0 at service.go:36"
	key := "lock:room:" + room
	ok, err := s.lock.TryLock(ctx, key, 30*time.Second)
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	defer s.lock.Unlock(ctx, key)
	return s.insert(ctx, room)
}

// The release lockWithdraw hands back, bound to the same context.
func (s *Service) Withdraw(ctx context.Context, id string) error { // want Withdraw:"defers a release under parameter 0 at service.go:46"
	unlock, err := s.lockWithdraw(ctx, id)
	if err != nil {
		return err
	}
	defer unlock()
	return s.insert(ctx, id)
}

func (s *Service) lockWithdraw(ctx context.Context, id string) (func(), error) {
	key := "lock:withdraw:" + id
	ok, err := s.lock.TryLock(ctx, key, 10*time.Second)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrBusy
	}
	return func() { _ = s.lock.Unlock(ctx, key) }, nil
}

// Through a helper of the package, in a deferred function literal.
func (s *Service) Settle(ctx context.Context, order string) error { // want Settle:"defers a release under parameter 0 at service.go:77"
	if order == "" {
		return errors.New("no order")
	}
	return s.settle(ctx, order)
}

func (s *Service) settle(ctx context.Context, order string) error { // want settle:"defers a release under parameter 0 at service.go:77"
	key := "lock:settle:" + order
	ok, err := s.lock.TryLock(ctx, key, 30*time.Second)
	if err != nil || !ok {
		return ErrBusy
	}
	defer func() {
		_ = s.lock.Unlock(ctx, key)
	}()
	return s.insert(ctx, order)
}

// Near miss: the release detaches itself from the caller's cancellation.
func (s *Service) Refund(ctx context.Context, order string) error {
	key := "lock:refund:" + order
	ok, err := s.lock.TryLock(ctx, key, 30*time.Second)
	if err != nil || !ok {
		return ErrBusy
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_ = s.lock.Unlock(rctx, key)
	}()
	return s.insert(ctx, order)
}

// Near miss: the release runs right after the work, not deferred, while
// the caller's context is as live as it was for the work.
func (s *Service) Cancel(ctx context.Context, order string) error { // want Cancel:"releases under parameter 0"
	key := "lock:cancel:" + order
	ok, err := s.lock.TryLock(ctx, key, 30*time.Second)
	if err != nil || !ok {
		return ErrBusy
	}
	err = s.insert(ctx, order)
	if uerr := s.lock.Unlock(ctx, key); err == nil {
		err = uerr
	}
	return err
}

func (s *Service) insert(ctx context.Context, id string) error { return ctx.Err() }

// Coordinator wraps the lock package's concrete lock: its Release passes
// the caller's context on to lock's Unlock.
type Coordinator struct{ l *lock.RedisLock }

func (c *Coordinator) Release(ctx context.Context, key string) { // want Release:"releases under parameter 0"
	_ = c.l.Unlock(ctx, key)
}

type Claims struct{ coord *Coordinator }

// The release deferred through the coordinator.
func (s *Claims) Claim(ctx context.Context, id string) error { // want Claim:"defers a release under parameter 0 at service.go:131"
	key := "lock:claim:" + id
	ok, err := s.coord.l.TryLock(ctx, key, 30*time.Second)
	if err != nil || !ok {
		return ErrBusy
	}
	defer s.coord.Release(ctx, key)
	return ctx.Err()
}
