// Package noleaseparam pins a lock with no lease whose key is a
// parameter: Lock(key) takes it with SETNX and no TTL, Unlock(key), a
// method of the same type, deletes it. No lease can lapse, so the plain
// DEL cannot remove a later holder's lock; the missing TTL is the
// acquire's defect (setnxexpire's), not the release's. The package's
// connectivity probe, whose SETNX has a TTL, gives no lock a lease.
package noleaseparam

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis/v8"
)

type store struct{ db *redis.Client }

func open(addr string) (*store, error) {
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	rdb.SetNX(ctx, "setup", 1, time.Millisecond)
	if err := rdb.Del(ctx, "setup").Err(); err != nil {
		return nil, err
	}
	return &store{db: rdb}, nil
}

func (s *store) Lock(key string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Millisecond)
	defer cancel()
	ok, err := s.db.SetNX(ctx, key, true, 0).Result()
	if err == nil && ok {
		return nil
	}
	return errors.New("locked: " + key)
}

// Near miss (silent): nobody else can hold the key while it is there.
func (s *store) Unlock(key string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Millisecond)
	defer cancel()
	return s.db.Del(ctx, string(key)).Err()
}
