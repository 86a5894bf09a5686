// Package constcompare pins a false positive found in go-redis's own tests
// (autopipeline_test.go:786-792, digest_test.go:114-139 and 437-454): a GET
// whose reply is compared with a constant, directly or through a local
// variable defined once from one, then a DEL of the same key, was taken for
// a hand-rolled owner check and the key for a lock. A constant is never an
// owner token: the comparison reads a state flag or asserts a value.
package constcompare

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Reported by go-redis's autopipeline test shape, in production code.
func finishJob(ctx context.Context, rdb *redis.Client, id string) {
	if v := rdb.Get(ctx, "job:"+id+":state").Val(); v != "done" {
		return
	}
	rdb.Del(ctx, "job:"+id+":state")
}

func clearIfEmpty(ctx context.Context, rdb *redis.Client, key string) {
	val, err := rdb.Get(ctx, key).Result()
	if err != nil || val == "" {
		return
	}
	rdb.Del(ctx, key)
}

// digest_test.go:437-454: the expected value sits in a local variable.
func updateAndVerify(ctx context.Context, rdb *redis.Client, key string) bool {
	newValue := "version-2"
	rdb.Set(ctx, key, newValue, 0)
	val, err := rdb.Get(ctx, key).Result()
	if err != nil {
		return false
	}
	ok := val == newValue
	rdb.Del(ctx, key)
	return ok
}

// The near miss that must still be reported: the reply compared with a
// token variable is an owner check in two round trips.
func release(ctx context.Context, rdb *redis.Client, key, token string) {
	if rdb.Get(ctx, key).Val() == token {
		rdb.Del(ctx, key) // want "GET on line 47 and this DEL of lock key `key` are two round trips"
	}
}
