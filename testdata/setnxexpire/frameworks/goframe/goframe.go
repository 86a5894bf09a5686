// Package goframe pins SETNX then EXPIRE through goframe's gredis, whose
// SetNX takes no TTL: the common shape there.
package goframe

import (
	"context"

	"github.com/gogf/gf/v2/database/gredis"
)

func take(ctx context.Context, r *gredis.Redis, name, token string) bool {
	ok, err := r.SetNX(ctx, "lock:"+name, token) // want `SETNX and the EXPIRE on line 14 are separate commands`
	if err == nil && ok {
		r.Expire(ctx, "lock:"+name, 30)
	}
	return ok
}

// Near miss: SET NX EX in one command.
func takeEx(ctx context.Context, r *gredis.Redis, name, token string) bool {
	ttl := int64(30)
	v, err := r.Set(ctx, "lock:"+name, token, gredis.SetOption{NX: true, TTLOption: gredis.TTLOption{EX: &ttl}})
	return err == nil && !v.IsNil()
}
