// Package credit pins the held-out miss of an acquire behind a service's
// own Locker interface whose caller tests only the not-obtained error
// (xyz-skilltest's CreditUserProcess): a Redis timeout or a refused
// connection falls through into the credit without the lock. The error
// variable is reused by the calls before the acquire; their tests are
// not tests of the acquire. The near misses return on every error.
package credit

import (
	"context"
	"errors"
	"time"

	"locklint.test/uncheckedacquire/regressions/lockerport/locker"
)

type Service struct {
	lock  locker.Locker
	limit func(ctx context.Context, user string) (int, error)
	save  func(ctx context.Context, user string, limit int) error
}

// Must report: any error but the miss runs the credit.
func (s *Service) Credit(ctx context.Context, user string, amount int) error {
	limit, err := s.limit(ctx, user)
	if err != nil {
		return err
	}
	err = s.lock.Obtain(ctx, "trx-credit-user:"+user, time.Second) // want "only `s\\.lock\\.Obtain`'s not-obtained error is checked"
	if errors.Is(err, locker.ErrNotObtained) {
		return errors.New("concurrent transaction")
	}
	defer s.lock.Release(ctx)
	return s.save(ctx, user, limit-amount)
}

// Near miss (silent): every other error returns too.
func (s *Service) CreditChecked(ctx context.Context, user string, amount int) error {
	limit, err := s.limit(ctx, user)
	if err != nil {
		return err
	}
	err = s.lock.Obtain(ctx, "trx-credit-user:"+user, time.Second)
	if errors.Is(err, locker.ErrNotObtained) {
		return errors.New("concurrent transaction")
	}
	if err != nil {
		return err
	}
	defer s.lock.Release(ctx)
	return s.save(ctx, user, limit-amount)
}

// Near miss (silent): one test of every error.
func (s *Service) CreditAnyError(ctx context.Context, user string, amount int) error {
	if err := s.lock.Obtain(ctx, "trx-credit-user:"+user, time.Second); err != nil {
		return err
	}
	defer s.lock.Release(ctx)
	limit, err := s.limit(ctx, user)
	if err != nil {
		return err
	}
	return s.save(ctx, user, limit-amount)
}
