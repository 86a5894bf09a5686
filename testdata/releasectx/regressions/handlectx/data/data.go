// Package data serialises the changes of one user's sessions with a lock
// handle that keeps the context it was taken under: lock stores its
// context in the handle, and unlock runs the compare-and-delete script
// under that stored context. A deferred l.unlock() therefore runs under
// the context the caller gave lock, which the handlers' calls say more
// of (package rest). The near misses take the handle under a context
// that outlives the call, or assign it twice.
package data

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var unlocking = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

type Storage struct{ db *redis.Client }

type lock struct {
	storage  *Storage
	ctx      context.Context
	resource string
	seal     string
}

func (s *Storage) lock(ctx context.Context, resource string, timeout time.Duration) (l *lock, err error) {
	l = &lock{storage: s, ctx: ctx, resource: resource, seal: uuid.NewString()}
	set, err := s.db.SetNX(ctx, l.resource, l.seal, timeout).Result()
	switch {
	case err != nil:
		return nil, err
	case !set:
		return nil, errors.New("already locked")
	}
	return l, nil
}

func (l *lock) unlock() error {
	return unlocking.Run(l.ctx, l.storage.db, []string{l.resource}, l.seal).Err()
}

// The handle's release, deferred in a closure, under the caller's
// context.
func (s *Storage) StartNewSession(ctx context.Context, user string) (err error) { // want StartNewSession:"defers a release under parameter 0 at data.go:55"
	var l *lock
	l, err = s.lock(ctx, "sessions:lock:"+user, 30*time.Second)
	if err != nil {
		return err
	}
	defer func() {
		if err := l.unlock(); err != nil {
			_ = err
		}
	}()
	return s.db.Incr(ctx, "sessions:last:"+user).Err()
}

// The handle's release, deferred itself.
func (s *Storage) EndSession(ctx context.Context, user string) error { // want EndSession:"defers a release under parameter 0 at data.go:68"
	l, err := s.lock(ctx, "sessions:lock:"+user, 30*time.Second)
	if err != nil {
		return err
	}
	defer l.unlock()
	return s.db.Del(ctx, "sessions:key:"+user).Err()
}

// Near miss: the handle is taken under a context of its own.
func (s *Storage) Sweep(user string) error {
	l, err := s.lock(context.Background(), "sessions:lock:"+user, 30*time.Second)
	if err != nil {
		return err
	}
	defer l.unlock()
	return nil
}

// Near miss: the handle is assigned twice, so which context it holds is
// not known here.
func (s *Storage) Rotate(ctx context.Context, user string) error {
	l, err := s.lock(ctx, "sessions:lock:"+user, 30*time.Second)
	if err != nil {
		l, err = s.lock(context.Background(), "sessions:lock:"+user+":retry", 30*time.Second)
		if err != nil {
			return err
		}
	}
	defer l.unlock()
	return nil
}
