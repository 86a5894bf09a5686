package testwait

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

func TestTwoWaiters(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{})
	ctx := context.Background()
	for {
		if rdb.SetNX(ctx, "lock:test", uuid.NewString(), time.Minute).Val() {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
}
