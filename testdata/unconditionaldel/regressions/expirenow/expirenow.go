// Package expirenow pins a release written as an expiry: EXPIREAT with
// the present time (or EXPIRE 0) removes the key at once, as DEL does,
// and with no owner check it removes the next holder's lock: reported by
// unconditionaldel, not as a renewal. The near miss extends the lease
// by a positive TTL, which is a renewal (plainpexpire's) and no delete.
package expirenow

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Store struct{ rdb *redis.Client }

func (s *Store) lockName(name string) string { return "golock:" + name }

func (s *Store) Lock(ctx context.Context, name, token string) (bool, error) {
	return s.rdb.SetNX(ctx, s.lockName(name), token, time.Minute).Result()
}

func (s *Store) Unlock(ctx context.Context, name string) error {
	return s.rdb.ExpireAt(ctx, s.lockName(name), time.Now()).Err() // want "EXPIREAT that ends it now of lock key `s.lockName\\(name\\)` without an owner check"
}

func (s *Store) Drop(ctx context.Context, name string) error {
	return s.rdb.Expire(ctx, s.lockName(name), 0).Err() // want "EXPIRE that ends it now of lock key `s.lockName\\(name\\)` without an owner check"
}

func (s *Store) Extend(ctx context.Context, name string) error {
	return s.rdb.Expire(ctx, s.lockName(name), time.Minute).Err()
}
