// Package namedresult pins an exported acquire that hands its reply back
// through named results: a goroutine stores SETNX's reply in ok and err,
// and the function returns them when it is done or its context ends. The
// caller decides what a miss means. The twin stores the reply in a local
// that nothing reads and goes on with the work.
package namedresult

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

type Distlock struct {
	Client *redis.Client
	TTL    time.Duration
}

// Near miss (silent): the reply is the function's result.
func (l *Distlock) LockContext(ctx context.Context, key, secret string) (ok bool, err error) {
	done := make(chan struct{})
	go func() {
		ok, err = l.Client.SetNX(ctx, key, secret, l.TTL).Result()
		close(done)
	}()
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case <-done:
		return
	}
}

// Near miss (silent): a bare return of the named result.
func (l *Distlock) Lock(ctx context.Context, key, secret string) (ok bool, err error) {
	ok, err = l.Client.SetNX(ctx, key, secret, l.TTL).Result()
	return
}

func work() {}

// Must report: the reply is kept in a local nobody reads.
func (l *Distlock) Run(ctx context.Context, key, secret string) error {
	ok, err := l.Client.SetNX(ctx, "lock:"+key, secret, l.TTL).Result() // want "only the error of SET NX is checked"
	if err != nil {
		return err
	}
	_ = ok
	work()
	return l.Client.Del(ctx, "lock:"+key).Err()
}
