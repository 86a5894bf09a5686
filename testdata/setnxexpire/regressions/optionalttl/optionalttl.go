// Package optionalttl pins a lock whose TTL is an option with no default:
// the acquire passes a local that is zero unless the caller's options
// carry a TTL, and the callers (in other packages) never do. With no TTL
// the key outlives a holder that dies. The near misses start from a
// default TTL, or set the TTL on every path.
package optionalttl

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

type LockOptions struct {
	TTL  *time.Duration
	Wait bool
}

type Locked struct {
	rdb       *redis.Client
	resources []string
}

// Unlock deletes what Lock took.
func (l *Locked) Unlock() {
	for _, res := range l.resources {
		l.rdb.Del(context.Background(), res)
	}
}

type Locker struct{ rdb *redis.Client }

var ErrBusy = errors.New("busy")

// Must report: with no TTL in the options, the keys never expire.
func (r *Locker) Lock(ctx context.Context, resources []string, opts LockOptions) (*Locked, error) {
	ttl := time.Duration(0)
	if opts.TTL != nil {
		ttl = *opts.TTL
	}
	var taken []string
	for _, res := range resources {
		ok, err := r.rdb.SetNX(ctx, res, res, ttl).Result() // want "lock key `res` .key of `..Locker..Lock`. acquired with no expiry unless the branch on line 40 sets `ttl`"
		if err != nil || !ok {
			(&Locked{rdb: r.rdb, resources: taken}).Unlock()
			return nil, ErrBusy
		}
		taken = append(taken, res)
	}
	return &Locked{rdb: r.rdb, resources: taken}, nil
}

// Near miss (silent): a default TTL that the options may replace.
func (r *Locker) LockDefault(ctx context.Context, res string, opts LockOptions) (*Locked, error) {
	ttl := 30 * time.Second
	if opts.TTL != nil {
		ttl = *opts.TTL
	}
	ok, err := r.rdb.SetNX(ctx, res, res, ttl).Result()
	if err != nil || !ok {
		return nil, ErrBusy
	}
	return &Locked{rdb: r.rdb, resources: []string{res}}, nil
}

// Near miss (silent): the TTL is set on both paths.
func (r *Locker) LockEither(ctx context.Context, res string, opts LockOptions) (*Locked, error) {
	var ttl time.Duration
	if opts.TTL != nil {
		ttl = *opts.TTL
	} else {
		ttl = time.Minute
	}
	ok, err := r.rdb.SetNX(ctx, res, res, ttl).Result()
	if err != nil || !ok {
		return nil, ErrBusy
	}
	return &Locked{rdb: r.rdb, resources: []string{res}}, nil
}
