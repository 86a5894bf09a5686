// Package plaindelconst pins locks of "1" that a plain DEL gives back, an
// AI studio's generation jobs, each with a local mutex as its fallback
// when Redis fails: nothing compares the value, so the lock has one
// defect, its release, which unconditionaldel reports (and names the
// constant). The twin gives its lock back with an owner check, which
// "1" passes for every holder.
package plaindelconst

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

type Studio struct {
	rdb   *redis.Client
	mu    sync.Mutex
	local map[string]bool
}

func (s *Studio) GenerateChapter(ctx context.Context, novel, chapter int64, gen func() error) error {
	redisKey := fmt.Sprintf("lock:chgen:%d-%d", novel, chapter)
	ok, err := s.rdb.SetNX(ctx, redisKey, "1", 30*time.Minute).Result()
	if err != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		return gen()
	}
	if !ok {
		return fmt.Errorf("chapter %d is being generated", chapter)
	}
	defer s.rdb.Del(context.Background(), redisKey)
	return gen()
}

func (s *Studio) Storyboard(ctx context.Context, video int64, gen func() error) error {
	redisKey := fmt.Sprintf("lock:storyboard:gen:%d", video)
	if ok, err := s.rdb.SetNX(ctx, redisKey, "1", 30*time.Minute).Result(); err == nil && !ok {
		return fmt.Errorf("storyboard of %d is being generated", video)
	}
	defer s.rdb.Del(context.Background(), redisKey)
	return gen()
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

// Must report: the release compares the value, and every holder's is "1".
func (s *Studio) Extract(ctx context.Context, novel int64, gen func() error) error {
	redisKey := fmt.Sprintf("lock:char:extract:%d", novel)
	ok, err := s.rdb.SetNX(ctx, redisKey, "1", 10*time.Minute).Result() // want "lock key `redisKey` acquired with a non-unique token \\(the constant `\"1\"`\\)"
	if err != nil || !ok {
		return fmt.Errorf("extraction of %d is running", novel)
	}
	defer s.rdb.Eval(context.Background(), unlock, []string{redisKey}, "1")
	return gen()
}
