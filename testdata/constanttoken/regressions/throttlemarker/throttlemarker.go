// Package throttlemarker pins throttles taken with SETNX of "1" that
// nothing releases, renews or reads: a withdrawal's per-user throttle
// beside a rate limiter's script on keys of other texts, and an alert's
// interval gate whose helper returns the SETNX's reply. The value guards
// nothing a token could protect: silent. Beside them a stock sync's lock,
// taken with "1" and given back by an owner check that compares it:
// reported.
package throttlemarker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var rateScript = redis.NewScript(`local n = redis.call("INCR", KEYS[1]) if n == 1 then redis.call("EXPIRE", KEYS[1], ARGV[1]) end return n`)

func checkRate(ctx context.Context, rdb *redis.Client, key string) error {
	n, err := rateScript.Run(ctx, rdb, []string{key}, 60).Int()
	if err != nil || n < 10 {
		return nil
	}
	return errors.New("too many orders")
}

func Order(ctx context.Context, rdb *redis.Client, ip string, user int) error {
	if err := checkRate(ctx, rdb, fmt.Sprintf("risk:order_rate:ip:%s", ip)); err != nil {
		return err
	}
	return checkRate(ctx, rdb, fmt.Sprintf("risk:order_rate:user:%d", user))
}

// Near miss (silent): a throttle that only expires.
func ApplyWithdraw(ctx context.Context, rdb *redis.Client, user int) error {
	lockKey := fmt.Sprintf("withdraw:lock:%d", user)
	ok, err := rdb.SetNX(ctx, lockKey, "1", 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("too frequent")
	}
	return nil
}

// Near miss (silent): the gate's reply is returned, not its key.
func acquireAlertInterval(ctx context.Context, rdb *redis.Client, kind string, secs int) (bool, error) {
	key := "notification:interval:" + kind
	return rdb.SetNX(ctx, key, "1", time.Duration(secs)*time.Second).Result()
}

func Alert(ctx context.Context, rdb *redis.Client, kind string) bool {
	ok, _ := acquireAlertInterval(ctx, rdb, kind, 600)
	return ok
}

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func sync() {}

// Must report: the release compares the constant every holder stores.
func SyncStock(ctx context.Context, rdb *redis.Client) error {
	const key = "stock:sync:lock"
	ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result() // want "acquired with a non-unique token"
	if err != nil || !ok {
		return err
	}
	defer release.Run(ctx, rdb, []string{key}, "1")
	sync()
	return nil
}
