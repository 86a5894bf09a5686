// Package noleaseparamttl is noleaseparam's twin whose Lock gives the
// key a lease: it can lapse while its holder works, and the holder's
// plain DEL then deletes the next holder's lock.
package noleaseparamttl

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis/v8"
)

type store struct{ db *redis.Client }

func (s *store) Lock(key string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Millisecond)
	defer cancel()
	ok, err := s.db.SetNX(ctx, key, true, 10*time.Second).Result()
	if err == nil && ok {
		return nil
	}
	return errors.New("locked: " + key)
}

func (s *store) Unlock(key string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Millisecond)
	defer cancel()
	return s.db.Del(ctx, string(key)).Err() // want `DEL of lock key`
}
