// Package dotimport imports go-redis with a dot: unqualified Client,
// Options and Nil.
package dotimport

import (
	"context"
	"errors"
	"time"

	. "github.com/redis/go-redis/v9"
)

func Run(ctx context.Context) error {
	rdb := NewClient(&Options{})
	ok, err := rdb.SetNX(ctx, "leader", "me", 0).Result() // want `SETNX and the EXPIRE on line 19 are separate commands` "lock key `\"leader\"` acquired with a non-unique token \\(the constant `\"me\"`\\)"
	if errors.Is(err, Nil) || !ok {
		return err
	}
	rdb.Expire(ctx, "leader", time.Minute)
	if v, _ := rdb.Get(ctx, "leader").Result(); v == "me" {
		rdb.Del(ctx, "leader") // want "DEL of lock key `\"leader\"` without an owner check"
	}
	return nil
}
