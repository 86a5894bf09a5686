// Package holdercallee pins holderrecord's shape one call away: init
// takes the semaphore's name with SET NX and, having won, calls create,
// which writes the semaphore's version beside it with a plain SET (keys
// named after the semaphore's lockByKey). Only the winner writes it:
// silent. The near miss, reset, is also called where nothing was
// acquired first, so its plain SET takes the key whoever holds it.
package holdercallee

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type semaphore struct {
	rdb       *redis.Client
	lockByKey string
	ttl       time.Duration
}

func (s *semaphore) name() string    { return fmt.Sprintf("semaphore:%s", s.lockByKey) }
func (s *semaphore) version() string { return fmt.Sprintf("%s:version", s.name()) }
func (s *semaphore) owner() string   { return fmt.Sprintf("%s:owner", s.name()) }

func (s *semaphore) init(ctx context.Context, token string) error {
	fresh, err := s.rdb.SetNX(ctx, s.name(), token, s.ttl).Result()
	if err != nil {
		return err
	}
	if fresh {
		return s.create(ctx, token)
	}
	return nil
}

func (s *semaphore) create(ctx context.Context, token string) error {
	if err := s.rdb.Set(ctx, s.version(), "1.0", s.ttl).Err(); err != nil {
		return err
	}
	return s.reset(ctx, token)
}

func (s *semaphore) reset(ctx context.Context, token string) error {
	return s.rdb.Set(ctx, s.owner(), token, s.ttl).Err() // want "SET of lock key `s.owner\\(\\)` without NX overwrites whoever holds it"
}

func (s *semaphore) Takeover(ctx context.Context, token string) error {
	return s.reset(ctx, token)
}
