// Package siblingclosures pins a wrong message found in go-redis's own
// tests (commands_test.go:2100-2108): a GET in one test-case closure was
// named as the owner read of a SET in the next closure of the same
// function, as if the two ran as one read-compare-then-write.
package siblingclosures

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func cases(ctx context.Context, rdb *redis.Client, run func(string, func())) {
	run("deleted when the value matches", func() {
		rdb.DelExArgs(ctx, "lock", redis.DelExArgs{Mode: "IFEQ", MatchValue: "token-123"})
		if rdb.Get(ctx, "lock").Err() != redis.Nil {
			panic("still there")
		}
	})
	run("kept when the value differs", func() {
		rdb.Set(ctx, "lock", "token-123", 0) // want "^SET of lock key `\"lock\"` without NX overwrites whoever holds it"
	})
}

// The near miss: the GET's function contains the write, which is the
// two-round-trip read-compare-then-write.
func renew(ctx context.Context, rdb *redis.Client, token string) {
	if rdb.Get(ctx, "lock").Val() == token {
		func() {
			rdb.Set(ctx, "lock", token, 0) // want "^GET on line 28 and this SET of lock key `\"lock\"` are two round trips"
		}()
	}
}
