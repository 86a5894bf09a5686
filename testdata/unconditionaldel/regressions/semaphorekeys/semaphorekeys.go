// Package semaphorekeys pins a semaphore type that keeps several keys in
// its fields (its permit queue, its init lock): the type's name says
// lock, but not which of its keys is one. Deleting the queue to refill
// it releases no lock: silent. The near miss, Semaphore2, keeps one key,
// which its name then names: its plain DEL is reported.
package semaphorekeys

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Semaphore struct {
	rdb   *redis.Client
	queue string
	init  string
}

func New(rdb *redis.Client, ns string) *Semaphore {
	return &Semaphore{rdb: rdb, queue: ns + "_queue", init: ns + "_init"}
}

func (s *Semaphore) Reset(ctx context.Context, permits ...any) error {
	if err := s.rdb.Del(ctx, s.queue).Err(); err != nil {
		return err
	}
	return s.rdb.RPush(ctx, s.queue, permits...).Err()
}

func (s *Semaphore) Acquire(ctx context.Context) (string, error) {
	return s.rdb.LPop(ctx, s.queue).Result()
}

func (s *Semaphore) Release(ctx context.Context, permit string) error {
	return s.rdb.RPush(ctx, s.queue, permit).Err()
}

func (s *Semaphore) Started(ctx context.Context) (bool, error) {
	return s.rdb.SetNX(ctx, s.init, 1, time.Hour).Result()
}

type Semaphore2 struct {
	rdb *redis.Client
	key string
}

func (s *Semaphore2) Acquire(ctx context.Context, token string) (bool, error) {
	return s.rdb.SetNX(ctx, s.key, token, time.Minute).Result()
}

func (s *Semaphore2) Release(ctx context.Context) error {
	return s.rdb.Del(ctx, s.key).Err() // want "DEL of lock key `s.key` without an owner check"
}

// Semaphore3 is Semaphore with its keys behind getters: the same.
type Semaphore3 struct {
	rdb *redis.Client
	ns  string
}

func (s *Semaphore3) queueKey() string { return s.ns + "_queue" }
func (s *Semaphore3) initKey() string  { return s.ns + "_init" }

func (s *Semaphore3) Reset(ctx context.Context, permits ...any) error {
	if err := s.rdb.Del(ctx, s.queueKey()).Err(); err != nil {
		return err
	}
	return s.rdb.RPush(ctx, s.queueKey(), permits...).Err()
}

func (s *Semaphore3) Started(ctx context.Context) (bool, error) {
	return s.rdb.SetNX(ctx, s.initKey(), 1, time.Hour).Result()
}
