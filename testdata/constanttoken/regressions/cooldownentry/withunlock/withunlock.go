// Package withunlock is cooldownentry's Lock with an Unlock beside it:
// its key is released, so the constant value is a lock's token.
package withunlock

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrBusy = errors.New("busy")

func Lock(ctx context.Context, rdb *redis.Client, name string, ttl time.Duration) error {
	if !rdb.SetNX(ctx, name, "1", ttl).Val() { // want "acquired with a non-unique token"
		return ErrBusy
	}
	return nil
}

func Unlock(ctx context.Context, rdb *redis.Client, name string) {
	rdb.Del(ctx, name)
}
