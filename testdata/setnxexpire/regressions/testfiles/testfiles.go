// Package testfiles pins SETNX with no expiry in tests, as go-zero's own
// client tests exercise it ("hello", "newhello"): the key lives on a
// server the test throws away, so no expiry is no bug. Outside tests the
// same call reports.
package testfiles

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func take(ctx context.Context, rdb *redis.Client, token string) bool {
	return rdb.SetNX(ctx, "lock:nightly", token, 0).Val() // want "lock key `\"lock:nightly\"` acquired with no expiry"
}

func done(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, "lock:nightly")
}
