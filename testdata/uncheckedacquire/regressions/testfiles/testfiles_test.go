package testfiles

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestSetNX(t *testing.T) {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{})
	rdb.SetNX(ctx, "lock:test", "tok", time.Second)
	t.Log("took it, maybe")
	rdb.Del(ctx, "lock:test")
}
