// Package dao pins a take through another package's helper whose lease
// is given there as a time.Duration: a coupon's lock held 30 s, given
// back on the take's failure path and by UnlockCoupon, both plain. The
// near miss is a checkout's reservation held for an hour through the
// same helpers: its failure path, right after the take, cannot find
// another's key.
package dao

import (
	"errors"
	"fmt"
	"time"

	"locklint.test/unconditionaldel/regressions/undowrapped/store"
)

type Coupons struct {
	owned   func(user, coupon uint) error
	reserve func(user uint) error
}

func (d *Coupons) LockCoupon(user, coupon uint) (bool, error) {
	key := fmt.Sprintf("coupon:lock:%d", coupon)
	locked, err := store.SetNX(key, 1, 30*time.Second)
	if err != nil || !locked {
		return false, err
	}
	if err := d.owned(user, coupon); err != nil {
		store.Del(key) // want "DEL of lock key `key` without an owner check"
		return false, err
	}
	return true, nil
}

func (d *Coupons) UnlockCoupon(coupon uint) error {
	return store.Del(fmt.Sprintf("coupon:lock:%d", coupon)) // want "DEL of lock key"
}

// Near miss (silent) on the failure path: an hour's lease.
func (d *Coupons) Reserve(user uint) error {
	key := fmt.Sprintf("checkout:hold:%d", user)
	ok, err := store.SetNX(key, 1, time.Hour)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	if err := d.reserve(user); err != nil {
		store.Del(key)
		return err
	}
	return nil
}

func (d *Coupons) ReleaseHold(user uint) error {
	return store.Del(fmt.Sprintf("checkout:hold:%d", user)) // want "DEL of lock key"
}
