package fixgoredis8

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-redis/redis/v8"
	"github.com/locklint/locklint/analyzer/fix/lock"
)

// A Ring is refused before anything is sent (its shard need not exist).
func TestRingRefused(t *testing.T) {
	r := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"a": "127.0.0.1:1"}})
	defer r.Close()
	c := Client(r)
	if c != Client(r) {
		t.Error("two Clients of one Ring differ")
	}
	_, err := lock.Obtain(context.Background(), c, "lock:{x}", time.Second)
	if !errors.Is(err, ErrRing) {
		t.Errorf("Obtain through a Ring: %v, want ErrRing", err)
	}
	if err := lock.Release(context.Background(), c, "lock:{x}", "token"); !errors.Is(err, ErrRing) {
		t.Errorf("Release through a Ring: %v, want ErrRing", err)
	}
}

func TestNilClient(t *testing.T) {
	var rc *redis.Client
	if Client(rc) != nil || Client(nil) != nil {
		t.Error("a nil client makes a non-nil lock.Client")
	}
}
