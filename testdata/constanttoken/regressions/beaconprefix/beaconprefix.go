// Package beaconprefix pins the held-out false report of a once-per-window
// claim taken through the registry's shared lock helper (ItsBagelBot's
// reauth beacon): "1" under an unexported prefix that the package names
// nowhere else, so nothing here releases, renews or reads the key, and
// no caller can name it to do so. The twins take a lock through the same
// helper whose prefix its release names too, and a claim under an
// exported prefix that callers may release.
package beaconprefix

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const (
	beaconPrefix = "outgress:reauth:beacon:"
	enrollPrefix = "outgress:enroll:lock:"
	// ClaimPrefix is the claim key's prefix, for callers that clear it.
	ClaimPrefix = "outgress:claim:lock:"
)

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

type Registry struct{ rdb *redis.Client }

func (r *Registry) acquireLock(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	return r.rdb.SetNX(ctx, key, owner, ttl).Result()
}

func (r *Registry) releaseLock(ctx context.Context, key, owner string) error {
	return release.Run(ctx, r.rdb, []string{key}, owner).Err()
}

// Near miss (silent): one beacon per window; nothing gives it back.
func (r *Registry) ArmBeacon(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	return r.acquireLock(ctx, beaconPrefix+id, "1", ttl)
}

// Must report: released by its owner, so the constant is the owner.
func (r *Registry) AcquireEnroll(ctx context.Context, id string) (bool, error) {
	return r.acquireLock(ctx, enrollPrefix+id, "1", time.Minute) // want "lock key `enrollPrefix \\+ id` .*acquired with a non-unique token"
}

func (r *Registry) ReleaseEnroll(ctx context.Context, id string) error {
	return r.releaseLock(ctx, enrollPrefix+id, "1")
}

// Must report: callers can name the key and release it.
func (r *Registry) Claim(ctx context.Context, id string) (bool, error) {
	return r.acquireLock(ctx, ClaimPrefix+id, "1", time.Minute) // want "lock key `ClaimPrefix \\+ id` .*acquired with a non-unique token"
}
