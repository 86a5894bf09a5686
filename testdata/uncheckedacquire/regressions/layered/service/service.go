// Package service pins a layered judge service: the handler takes the
// user's lock through the use case (biz), whose repository interface is
// implemented with SETNX in package data, drops whether it was taken,
// and gives the lock back through the use case when publishing fails.
// The use case's package sees no implementation, the service's does: the
// dropped result is reported at the call. The near misses test the
// result, or call a forwarding method that is no take.
package service

import (
	"errors"
	"fmt"
	"time"

	"locklint.test/uncheckedacquire/regressions/layered/biz"
	"locklint.test/uncheckedacquire/regressions/layered/data"
)

var ErrBusy = errors.New("a submission is being judged")

type Service struct {
	uc      *biz.UseCase
	publish func(task string) error
}

func New(repo *data.Repo, publish func(string) error) *Service {
	return &Service{uc: biz.New(repo), publish: publish}
}

// Must report: only the error is kept; a held lock is no error.
func (s *Service) Submit(uid int, task string) error {
	key := fmt.Sprintf("user_lock:%d", uid)
	var err error
	_, err = s.uc.Lock(key, time.Minute) // want "only the error of SET NX is checked"
	if err != nil {
		return ErrBusy
	}
	if err = s.publish(task); err != nil {
		_ = s.uc.UnLock(key)
		return err
	}
	return nil
}

// Near miss (silent): the result is tested.
func (s *Service) SubmitChecked(uid int, task string) error {
	key := fmt.Sprintf("user_lock:%d", uid)
	ok, err := s.uc.Lock(key, time.Minute)
	if err != nil || !ok {
		return ErrBusy
	}
	if err = s.publish(task); err != nil {
		_ = s.uc.UnLock(key)
		return err
	}
	return nil
}

// Near miss (silent): a forwarding method that takes nothing.
func (s *Service) Record(id, verdict string) error {
	return s.uc.Save(id, verdict)
}
