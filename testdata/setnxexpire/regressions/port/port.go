// Package port takes a lock through a Redis port, an interface of its own
// in go-redis's words, with the lease set by a second call: a crash
// between the two leaves the key without a TTL.
package port

import (
	"context"
	"time"
)

type Cache interface {
	SetNX(ctx context.Context, key string, value any, expiration time.Duration) (bool, error)
	Expire(ctx context.Context, key string, expiration time.Duration) (bool, error)
}

func Claim(ctx context.Context, c Cache, order, owner string) (bool, error) {
	key := "order:" + order + ":lock"
	ok, err := c.SetNX(ctx, key, owner, 0) // want "SETNX and the EXPIRE on line 22 are separate commands"
	if err != nil || !ok {
		return false, err
	}
	_, err = c.Expire(ctx, key, 30*time.Second)
	return true, err
}

// Near miss: the lease is given with the SetNX.
func ClaimAtomically(ctx context.Context, c Cache, order, owner string) (bool, error) {
	return c.SetNX(ctx, "order:"+order+":lock", owner, 30*time.Second)
}
