// Package throttlemarker pins throttle markers: a lock helper takes a key
// that a helper of the package makes from the caller's arguments, and
// nothing in the package releases, renews or checks a key of that family,
// so the value guards nothing and a constant is no bug. The twins release
// their family, by the same format or the same helper, with an owner
// check, and their constant token lets one holder's release pass for
// another's.
package throttlemarker

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

type Cache struct{ rdb *redis.Client }

func (c *Cache) limitKey(action, addr string) string {
	return strings.ToLower(fmt.Sprintf("search:limit:%s:%s", action, addr))
}

// LimitLock lets one search per address through every 600 ms.
func (c *Cache) LimitLock(ctx context.Context, action, addr string) error {
	key := c.limitKey(action, addr)
	ok, err := c.rdb.SetNX(ctx, key, "", 600*time.Millisecond).Result()
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("too frequent")
	}
	return nil
}

func (c *Cache) CouponLock(ctx context.Context, code string) error {
	key := fmt.Sprintf("register:coupon:%s", code)
	if !c.rdb.SetNX(ctx, key, "", 10*time.Minute).Val() { // want "lock key `key` \\(key of `\\(\\*Cache\\).CouponLock`\\) acquired with a non-unique token \\(the constant `\"\"`\\)"
		return fmt.Errorf("coupon in use")
	}
	return nil
}

func (c *Cache) CouponUnlock(ctx context.Context, code string) error {
	return c.rdb.Eval(ctx, unlock, []string{fmt.Sprintf("register:coupon:%s", code)}, "").Err()
}

func (c *Cache) holdKey(seat string) string { return "hold:" + seat }

func (c *Cache) HoldLock(ctx context.Context, seat string) bool {
	return c.rdb.SetNX(ctx, c.holdKey(seat), "1", time.Minute).Val() // want "lock key `c.holdKey\\(seat\\)` \\(key of `\\(\\*Cache\\).HoldLock`\\) acquired with a non-unique token \\(the constant `\"1\"`\\)"
}

func (c *Cache) HoldUnlock(ctx context.Context, seat string) error {
	return c.rdb.Eval(ctx, unlock, []string{c.holdKey(seat)}, "1").Err()
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`
