// Package expirenow pins an expiry that ends the key at once (EXPIREAT
// with the present time, EXPIRE 0): a delete in effect, which
// unconditionaldel judges, not a renewal: silent here. The near miss
// extends the lease by a positive TTL with no owner check: reported.
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
	return s.rdb.ExpireAt(ctx, s.lockName(name), time.Now()).Err()
}

func (s *Store) Drop(ctx context.Context, name string) error {
	return s.rdb.PExpire(ctx, s.lockName(name), -1).Err()
}

func (s *Store) Extend(ctx context.Context, name string) error {
	return s.rdb.Expire(ctx, s.lockName(name), time.Minute).Err() // want "EXPIRE of lock key `s.lockName\\(name\\)` without an owner check"
}
