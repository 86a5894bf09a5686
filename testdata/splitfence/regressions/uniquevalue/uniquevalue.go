// Package uniquevalue pins a counter drawn before the acquire only to make
// the lease's value unique: the owner and the number are written into the
// lock key, and Release compares the key with that same text. Nothing
// orders writes by the number, so it is a token's part, not a fence. The
// twins send their number on as a fence (named so, or kept apart from the
// value), which a pause between the two round trips makes stale.
package uniquevalue

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Lease struct {
	Token     uint64
	ExpiresAt time.Time
}

type Manager struct{ rdb *redis.Client }

func (m *Manager) Acquire(ctx context.Context, resource, owner string, ttl time.Duration) (Lease, bool, error) {
	token, err := m.rdb.Incr(ctx, "lease:seq:"+resource).Uint64()
	if err != nil {
		return Lease{}, false, err
	}
	value := fmt.Sprintf("%s|%d", owner, token)
	ok, err := m.rdb.SetNX(ctx, "lease:lock:"+resource, value, ttl).Result()
	if err != nil || !ok {
		return Lease{}, false, err
	}
	return Lease{Token: token, ExpiresAt: time.Now().Add(ttl)}, true, nil
}

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func (m *Manager) Release(ctx context.Context, resource, owner string, token uint64) error {
	return release.Run(ctx, m.rdb, []string{"lease:lock:" + resource}, fmt.Sprintf("%s|%d", owner, token)).Err()
}

// The number goes into the value, and on to the store as its fence.
func (m *Manager) AcquireFenced(ctx context.Context, resource, owner string, ttl time.Duration) (uint64, bool, error) {
	fence, err := m.rdb.Incr(ctx, "lease:fence:"+resource).Uint64() // want "INCR of fence"
	if err != nil {
		return 0, false, err
	}
	ok, err := m.rdb.SetNX(ctx, "lease:lock:"+resource, fmt.Sprintf("%s|%d", owner, fence), ttl).Result()
	return fence, ok, err
}

// The number is not part of the value: it can only be a fence.
func (m *Manager) AcquireEpoch(ctx context.Context, resource, owner string, ttl time.Duration) (uint64, bool, error) {
	token, err := m.rdb.Incr(ctx, "lease:seq:"+resource).Uint64() // want "INCR of fence"
	if err != nil {
		return 0, false, err
	}
	ok, err := m.rdb.SetNX(ctx, "lease:lock:"+resource, owner, ttl).Result()
	return token, ok, err
}
