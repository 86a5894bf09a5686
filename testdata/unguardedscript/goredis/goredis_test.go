package goredis

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

// Near miss: test cleanup deletes the lock it set up.
func TestCleanup(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{})
	rdb.Eval(context.Background(), `return redis.call('DEL', KEYS[1])`, []string{"lock:test"})
}
