package fix_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/lock"
	"github.com/redis/go-redis/v9"
)

// A nil client is bad input: a typed error before anything is sent, never
// a panic, whichever way it reaches the library.
func TestNilClient(t *testing.T) {
	ctx := context.Background()
	var c *redis.Client
	if _, err := fix.Obtain(ctx, c, "lock:x", time.Second); !errors.Is(err, fix.ErrNilClient) {
		t.Errorf("fix.Obtain: %v, want ErrNilClient", err)
	}
	if err := fix.Release(ctx, c, "lock:x", "t"); !errors.Is(err, fix.ErrNilClient) {
		t.Errorf("fix.Release: %v, want ErrNilClient", err)
	}
	if _, err := lock.Obtain(ctx, fix.Client(c), "lock:x", time.Second); !errors.Is(err, lock.ErrNilClient) {
		t.Errorf("lock.Obtain of fix.Client(nil): %v, want ErrNilClient", err)
	}
	if _, err := lock.Obtain(ctx, fix.Client(nil), "lock:x", time.Second); !errors.Is(err, lock.ErrNilClient) {
		t.Errorf("lock.Obtain of fix.Client(nil interface): %v, want ErrNilClient", err)
	}
}
