package fixgoredis8_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-redis/redis/v8"
	"github.com/locklint/locklint/analyzer/fix/fixgoredis8"
	"github.com/locklint/locklint/analyzer/fix/lock"
)

// A nil client is bad input: a typed error before anything is sent, never
// a panic.
func TestNilClient(t *testing.T) {
	ctx := context.Background()
	var c *redis.Client
	var cc *redis.ClusterClient
	for _, u := range []redis.UniversalClient{nil, c, cc} {
		if _, err := lock.Obtain(ctx, fixgoredis8.Client(u), "lock:x", time.Second); !errors.Is(err, lock.ErrNilClient) {
			t.Errorf("Obtain with %T(nil): %v, want ErrNilClient", u, err)
		}
	}
}
