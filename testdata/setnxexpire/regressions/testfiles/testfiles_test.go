package testfiles

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

func TestSetNX(t *testing.T) {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{})
	rdb.SetNX(ctx, "lock:hello", "world", 0)
	if rdb.SetNX(ctx, "lock:hello", "again", 0).Val() {
		t.Fatal("second SETNX won")
	}
}
