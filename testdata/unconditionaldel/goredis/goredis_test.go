package goredis

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

// Near miss: test cleanup of a lock key is not reported by default.
func TestCleanup(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{})
	t.Cleanup(func() { rdb.Del(context.Background(), "lock:feed") })
}
