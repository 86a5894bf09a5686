// Package generics wraps Redis clients in type parameters: the model must
// not crash on instantiated methods or on calls through a constraint.
package generics

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Locker is a client-shaped constraint: calls through it have no concrete
// callee in go-redis, but its methods have go-redis's signatures, so they
// are those commands.
type Locker interface {
	SetNX(ctx context.Context, key string, value any, exp time.Duration) *redis.BoolCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

// Wrap holds any client under a type parameter.
type Wrap[C redis.Cmdable] struct {
	c   C
	key string
}

func (w *Wrap[C]) Acquire(ctx context.Context) bool {
	return w.c.SetNX(ctx, w.key, "t", 0).Val() // want "lock key `w\\.key` acquired with no expiry"
}

func (w *Wrap[C]) Release(ctx context.Context) {
	w.c.Del(ctx, w.key) // want "DEL of lock key `w\\.key` without an owner check"
}

func Generic[L Locker](ctx context.Context, l L, name string) {
	if l.SetNX(ctx, "lock:"+name, "t", time.Second).Val() {
		defer l.Del(ctx, "lock:"+name) // want "DEL of lock key `\"lock:\" \\+ name` without an owner check"
	}
}

// Pair is a generic struct whose fields are keys.
type Pair[K ~string] struct{ Lock, Cache K }

func Instantiated(ctx context.Context, rdb *redis.Client, p Pair[string]) {
	rdb.Del(ctx, p.Cache)
	_ = Wrap[*redis.Client]{c: rdb, key: p.Lock}
}

// Keyed is a generic helper that builds a key.
func Keyed[T any](prefix string, _ T) string { return prefix + ":lock" }

func ViaGenericHelper(ctx context.Context, rdb *redis.Client) {
	rdb.Set(ctx, Keyed[int]("job", 1), "t", time.Minute)
}
