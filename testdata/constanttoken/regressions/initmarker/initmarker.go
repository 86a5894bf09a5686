// Package initmarker pins a semaphore's one-time init marker: Init takes
// "<ns>_lock" with SET NX and a constant, fills the permits, and never
// gives the key back; nothing else in the package reads, renews or
// deletes it. The constant guards nothing: silent. The near miss, Mutex,
// keeps its key in a field too, but its Unlock compares the value with
// the constant it was taken with, which every holder shares: reported.
package initmarker

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Semaphore struct {
	rdb      *redis.Client
	LockName string
	permits  string
	limit    int
}

func NewSemaphore(rdb *redis.Client, ns string, limit int) *Semaphore {
	return &Semaphore{rdb: rdb, LockName: ns + "_lock", permits: ns + "_permits", limit: limit}
}

func (s *Semaphore) tryLock(ctx context.Context, timeout time.Duration) (bool, error) {
	return s.rdb.SetNX(ctx, s.LockName, "locked", timeout).Result()
}

func (s *Semaphore) Init(ctx context.Context) error {
	ok, err := s.tryLock(ctx, 30*time.Second)
	if err != nil || !ok {
		return err
	}
	for i := range s.limit {
		if err := s.rdb.RPush(ctx, s.permits, fmt.Sprintf("permit_%d", i)).Err(); err != nil {
			return err
		}
	}
	return nil
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

type Mutex struct {
	rdb *redis.Client
	key string
}

func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, "locked", 30*time.Second).Result() // want "lock key `m.key` acquired with a non-unique token"
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return m.rdb.Eval(ctx, unlock, []string{m.key}, "locked").Err()
}
