// Package claimresult pins a payment service's idempotency claim: after
// the database shows no payment for the key, it takes
// "payment:idempotency:<key>" with SETNX of "processing" for a day,
// creates the payment, and overwrites the claim with the payment's id
// (deleting it only when the insert failed). The SET records the claim's
// result, not a renewal of a lock another could hold: silent. The twin
// renews a job lock taken with the same constant by a plain SET of a
// token from elsewhere after the work: reported.
package claimresult

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Payment struct{ ID string }

func create(context.Context, string) (*Payment, error) { return &Payment{ID: "p1"}, nil }

// Near miss (silent): the claim's next state is the payment's id.
func PayOrder(ctx context.Context, rdb *redis.Client, key string) (*Payment, error) {
	lockKey := fmt.Sprintf("payment:idempotency:%s", key)
	locked, err := rdb.SetNX(ctx, lockKey, "processing", 24*time.Hour).Result()
	if err != nil {
		return nil, err
	}
	if !locked {
		return nil, errors.New("already processing")
	}
	p, err := create(ctx, key)
	if err != nil {
		_ = rdb.Del(ctx, lockKey).Err()
		return nil, err
	}
	_ = rdb.Set(ctx, lockKey, p.ID, 24*time.Hour).Err()
	return p, nil
}

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func step(context.Context) {}

// Must report: the constant taken first, a value from elsewhere written
// over whoever holds the key by then, in another function.
func Run(ctx context.Context, rdb *redis.Client) error {
	ok, err := rdb.SetNX(ctx, "jobs:lock", "1", time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	step(ctx)
	defer release.Run(ctx, rdb, []string{"jobs:lock"}, "1")
	return nil
}

func Extend(ctx context.Context, rdb *redis.Client, holder string) {
	rdb.Set(ctx, "jobs:lock", holder, time.Minute) // want "SET of lock key `\"jobs:lock\"` without NX or IFEQ overwrites whoever holds it"
}
