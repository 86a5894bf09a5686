// Package store takes a user's lock and then a seat's, each with SETNX
// of one token and each released by a deferred compare-and-delete under
// the context it is given. Reserve defers both under ctx; Hold defers
// the seat's under a context that outlives the call.
package store

import (
	"context"
	"crypto/rand"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

var errBusy = errors.New("busy")

type Store struct{ rdb *redis.Client }

func (s *Store) lock(ctx context.Context, key, token string) error {
	ok, err := s.rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return nil
}

func (s *Store) unlock(ctx context.Context, key, token string) { // want unlock:"releases under parameter 0"
	unlock.Run(ctx, s.rdb, []string{key}, token)
}

func (s *Store) Reserve(ctx context.Context, user, seat string) error { // want Reserve:"defers a release under parameter 0 at store.go:42, store.go:46"
	token := rand.Text()
	if err := s.lock(ctx, "lock:user:"+user, token); err != nil {
		return err
	}
	defer s.unlock(ctx, "lock:user:"+user, token)
	if err := s.lock(ctx, "lock:seat:"+seat, token); err != nil {
		return err
	}
	defer s.unlock(ctx, "lock:seat:"+seat, token)
	return s.rdb.HSet(ctx, "seats", seat, user).Err()
}

func (s *Store) Hold(ctx context.Context, user, seat string) error { // want Hold:"defers a release under parameter 0 at store.go:55"
	token := rand.Text()
	if err := s.lock(ctx, "lock:user:"+user, token); err != nil {
		return err
	}
	defer s.unlock(ctx, "lock:user:"+user, token)
	if err := s.lock(ctx, "lock:seat:"+seat, token); err != nil {
		return err
	}
	defer s.unlock(context.WithoutCancel(ctx), "lock:seat:"+seat, token)
	return s.rdb.HSet(ctx, "holds", seat, user).Err()
}
