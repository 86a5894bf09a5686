// Package codereplaced pins a sign-in service's SMS codes: sending a new
// code deletes the mobile's previous one and writes the new code with
// SETNX right after, for five minutes; the check reads it, compares it
// with what the user typed and deletes it. The DEL before the SETNX
// clears the key so the write always lands: nothing is taken from
// anyone, and the key is a code record: silent. The twins take a lock
// with SETNX, work, and delete it with a plain DEL; or delete the key
// right before a SETNX whose reply they test, so that every buyer gets
// "the lock": reported.
package codereplaced

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

func send(string, string) error { return nil }

// Near miss (silent): the previous code is replaced.
func SendSmsCode(ctx context.Context, rdb *redis.Client, mobile, code string) error {
	if err := send(mobile, code); err != nil {
		return err
	}
	key := fmt.Sprintf("SmsCode-Mobile:%s", mobile)
	rdb.Del(ctx, key)
	return rdb.SetNX(ctx, key, code, 5*time.Minute).Err()
}

func VerifySmsCode(ctx context.Context, rdb *redis.Client, mobile, code string) (bool, error) {
	key := fmt.Sprintf("SmsCode-Mobile:%s", mobile)
	stored, err := rdb.Get(ctx, key).Result()
	if err != nil {
		return false, err
	}
	if stored != code {
		return false, nil
	}
	rdb.Del(ctx, key)
	return true, nil
}

func rebuild() {}

// Must report: taken, worked under, deleted with no owner check.
func Rebuild(ctx context.Context, rdb *redis.Client, index, token string) error {
	key := fmt.Sprintf("Rebuild-Index:%s", index)
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	rebuild()
	rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	return nil
}

var releaseIfOwner = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func publish(string) {}

// Must report: the DEL removes whoever holds the product's lock, and the
// tested SETNX after it always wins.
func SecKill(ctx context.Context, rdb *redis.Client, product, token string) error {
	rdb.Del(ctx, product) // want "DEL of lock key `product` without an owner check"
	ok, err := rdb.SetNX(ctx, product, token, 3*time.Second).Result()
	if err != nil || !ok {
		return fmt.Errorf("get lock fail: %v", err)
	}
	publish(product)
	releaseIfOwner.Run(ctx, rdb, []string{product}, token)
	return nil
}
