// Package lock is a lock over several Redis clients whose release runs
// the compare-and-delete script on each, through a method that Release
// calls under its caller's context, and whose locks are handed out as an
// interface.
package lock

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrNotHeld = errors.New("lock not held")

var releaseScript = redis.NewScript(`
if redis.call("get", KEYS[1]) == ARGV[1] then
	return redis.call("del", KEYS[1])
end
return 0`)

type Lock interface {
	Release(context.Context) error // want Release:"releases under parameter 0"
}

type Locker struct{ clients []*redis.Client }

type lock struct {
	clients []*redis.Client
	key     string
	token   string
}

func (l Locker) Acquire(ctx context.Context, key string, ttl time.Duration) (Lock, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	lk := &lock{clients: l.clients, key: key, token: hex.EncodeToString(b)}
	for i, c := range l.clients {
		ok, err := c.SetNX(ctx, key, lk.token, ttl).Result()
		if err != nil || !ok {
			_ = lk.release(ctx, i)
			return nil, errors.Join(err, ErrNotHeld)
		}
	}
	return lk, nil
}

func (l *lock) Release(ctx context.Context) error { // want Release:"releases under parameter 0"
	return l.release(ctx, len(l.clients))
}

// release runs the script on the first n clients, in reverse order.
func (l *lock) release(ctx context.Context, n int) error { // want release:"releases under parameter 0"
	var errs []error
	for i := n - 1; i >= 0; i-- {
		if err := releaseScript.Run(ctx, l.clients[i], []string{l.key}, l.token).Err(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
