// Package service runs scheduled tasks now, under a distributed lock when
// it is enabled: the release closure the acquire hands back is bound to
// the caller's context, and RunNow defers it, through a variable that
// holds a no-op until the lock is taken. When that context is a request's,
// a client that goes away cuts the release and the task stays locked
// until the TTL (package handler says which callers pass one).
package service

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var ErrRunning = fmt.Errorf("task already running")

type Tasks struct {
	rdb         *redis.Client
	lockEnabled bool
	ttl         time.Duration
}

func (s *Tasks) RunNow(ctx context.Context, id int64) error { // want RunNow:"defers a release under parameter 0 at service.go:38"
	unlock := func() {}
	if s.lockEnabled {
		u, ok, err := s.acquire(ctx, id)
		if err != nil {
			return err
		}
		if !ok {
			return ErrRunning
		}
		unlock = u
	}
	defer unlock()
	return s.execute(ctx, id)
}

func (s *Tasks) RunLocked(ctx context.Context, id int64) error { // want RunLocked:"defers a release under parameter 0 at service.go:47"
	unlock, ok, err := s.acquire(ctx, id)
	if err != nil || !ok {
		return ErrRunning
	}
	defer unlock()
	return s.execute(ctx, id)
}

func (s *Tasks) acquire(ctx context.Context, id int64) (func(), bool, error) {
	key := fmt.Sprintf("scheduler:task:lock:%d", id)
	token := uuid.NewString()
	ok, err := s.rdb.SetNX(ctx, key, token, s.ttl).Result()
	if err != nil || !ok {
		return nil, false, err
	}
	unlock := func() {
		_, _ = s.rdb.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, []string{key}, token).Result()
	}
	return unlock, true, nil
}

func (s *Tasks) execute(ctx context.Context, id int64) error { return ctx.Err() }
