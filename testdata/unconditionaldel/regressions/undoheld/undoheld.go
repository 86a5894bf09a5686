// Package undoheld pins a delete on the take's failure path. A coupon's
// lock is taken in LockCoupon, kept on success for the order to use and
// given back by UnlockCoupon; when the coupon turns out not to be the
// user's, LockCoupon deletes it at once. Both deletes give back a lock,
// and both are plain. The near miss is a purchase marker: taken once per
// user and activity, kept on success until the activity ends and deleted
// only when the order could not be created, so that the user may try
// again. Nothing else deletes it: it is a record, not a lock. So are a
// checkout's pre-order keys, held for minutes (or for a lease the
// script sets) and released by another function much later: their take's
// own failure path, a moment after the take, cannot find another's key.
package undoheld

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

type Coupons struct {
	rdb   *redis.Client
	owned func(user, coupon uint) error
	order func(user, activity uint) error
}

// Must report: the failure path gives back a lock that UnlockCoupon
// would otherwise give back.
func (s *Coupons) LockCoupon(user, coupon uint) (bool, error) {
	lockKey := fmt.Sprintf("coupon:lock:%d", coupon)
	locked, err := s.rdb.SetNX(ctx, lockKey, 1, 30*time.Second).Result()
	if err != nil || !locked {
		return false, err
	}
	if err := s.owned(user, coupon); err != nil {
		s.rdb.Del(ctx, lockKey) // want "DEL of lock key `lockKey` without an owner check"
		return false, err
	}
	return true, nil
}

// Must report.
func (s *Coupons) UnlockCoupon(coupon uint) error {
	lockKey := fmt.Sprintf("coupon:lock:%d", coupon)
	return s.rdb.Del(ctx, lockKey).Err() // want "DEL of lock key `lockKey` without an owner check"
}

// Near miss (silent): the purchase marker, undone only when the order
// failed.
func (s *Coupons) Purchase(user, activity uint, ends time.Time) error {
	key := fmt.Sprintf("seckill:user:%d:%d", user, activity)
	first, err := s.rdb.SetNX(ctx, key, 1, time.Until(ends)).Result()
	if err != nil {
		return err
	}
	if !first {
		return errors.New("already purchased")
	}
	if err := s.order(user, activity); err != nil {
		s.rdb.Del(ctx, key)
		return err
	}
	return nil
}

type Checkout struct {
	rdb       *redis.Client
	inventory func(user uint) error
}

const preorder = `
if redis.call("EXISTS", KEYS[1]) == 1 then return 0 end
redis.call("SETEX", KEYS[1], ARGV[1], ARGV[2])
return 1`

// Near miss (silent): the lease is set by the script, out of sight, and
// the failure paths run right after the take.
func (s *Checkout) Prepare(user uint, items []string, id string) error {
	key := fmt.Sprintf("checkout:preorder:%d", user)
	n, err := s.rdb.Eval(ctx, preorder, []string{key}, 300, id).Int()
	if err != nil || n == 0 {
		return err
	}
	if len(items) == 0 {
		s.rdb.Del(ctx, key)
		return errors.New("no items")
	}
	if err := s.inventory(user); err != nil {
		s.rdb.Del(ctx, key)
		return err
	}
	return nil
}

// Near miss (silent): a ten-minute lease outlasts the failure path.
func (s *Checkout) Reserve(user uint) error {
	key := fmt.Sprintf("checkout:reserve:%d", user)
	ok, err := s.rdb.SetNX(ctx, key, 1, 10*time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	if err := s.inventory(user); err != nil {
		s.rdb.Del(ctx, key)
		return err
	}
	return nil
}

// Must report: the releases, run when the order times out, minutes
// later.
func (s *Checkout) Release(user uint) {
	s.rdb.Del(ctx, fmt.Sprintf("checkout:preorder:%d", user)) // want "DEL of lock key"
	s.rdb.Del(ctx, fmt.Sprintf("checkout:reserve:%d", user))  // want "DEL of lock key"
}
