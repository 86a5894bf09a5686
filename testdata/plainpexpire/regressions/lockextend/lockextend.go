// Package lockextend pins issue 32's miss of a lock type's Extend that
// renews through the service's own command wrapper with a plain EXPIRE:
// a method named for renewal on a type named for a lock renews that
// lock. The near misses are a session's and a subscription's refresh
// through the same wrapper, in the same package: renewal verbs count only
// on a lock's type.
package lockextend

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var unlock = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

// Commands is the service's wrapper of the client.
type Commands struct{ rdb *redis.Client }

func (c *Commands) Lock(ctx context.Context, key, value string, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, key, value, ttl).Result()
}

func (c *Commands) Unlock(ctx context.Context, key, value string) error {
	return unlock.Run(ctx, c.rdb, []string{key}, value).Err()
}

func (c *Commands) Expire(ctx context.Context, key string, ttl time.Duration) error {
	return c.rdb.Expire(ctx, key, ttl).Err()
}

func (c *Commands) Get(ctx context.Context, key string) (string, error) {
	return c.rdb.Get(ctx, key).Result()
}

type DistributedLock struct{ commands *Commands }

func (l *DistributedLock) TryLock(ctx context.Context, key, value string, ttl time.Duration) (bool, error) {
	return l.commands.Lock(ctx, key, value, ttl)
}

func (l *DistributedLock) Unlock(ctx context.Context, key, value string) error {
	return l.commands.Unlock(ctx, key, value)
}

// Must report: the lock's renewal checks no owner.
func (l *DistributedLock) Extend(ctx context.Context, key string, ttl time.Duration) error {
	return l.commands.Expire(ctx, key, ttl) // want "EXPIRE of lock key `key` \\(key of `\\(\\*DistributedLock\\)\\.Extend`\\) without an owner check"
}

type SessionCache struct{ commands *Commands }

// Near miss (silent): a session's data kept alive while it is used.
func (s *SessionCache) RefreshSession(ctx context.Context, id string) error {
	return s.commands.Expire(ctx, "session:"+id, 30*time.Minute)
}

func (s *SessionCache) Load(ctx context.Context, id string) (string, error) {
	return s.commands.Get(ctx, "session:"+id)
}

type Subscription struct{ commands *Commands }

// Near miss (silent): a plan's expiry moved on renewal of the
// subscription.
func (s *Subscription) Extend(ctx context.Context, key string, ttl time.Duration) error {
	return s.commands.Expire(ctx, key, ttl)
}
