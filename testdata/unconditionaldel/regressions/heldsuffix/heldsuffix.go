// Package heldsuffix pins a check-in service whose lock is taken in
// doCheckin, which then calls doCheckinLocked, Go's name for "called with
// the lock held". That function invalidates a progress cache with a plain
// DEL: a cache key, not the lock, whatever the function's name says:
// silent. The lock's own release, a plain DEL after the work, is
// reported, and so is the release in a function that asks whether a key
// is locked and clears it.
package heldsuffix

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

type Service struct{ rdb *redis.Client }

func (s *Service) doCheckin(ctx context.Context, task, point string) error {
	lockKey := "lock:checkin:" + task + ":" + point
	ok, err := s.rdb.SetNX(ctx, lockKey, "1", 5*time.Second).Result()
	if err != nil || !ok {
		return errors.New("duplicate check-in")
	}
	err = s.doCheckinLocked(ctx, task)
	s.rdb.Del(ctx, lockKey) // want "DEL of lock key `lockKey` without an owner check"
	return err
}

func (s *Service) doCheckinLocked(ctx context.Context, task string) error {
	// The task's progress changed.
	s.rdb.Del(ctx, "cache:task:progress:"+task)
	return nil
}

// A function that asks whether a key is locked names the lock.
func (s *Service) clearIfLocked(ctx context.Context, name string) {
	if s.rdb.Exists(ctx, name).Val() == 1 {
		s.rdb.Del(ctx, name) // want "DEL of lock key `name`"
	}
}
