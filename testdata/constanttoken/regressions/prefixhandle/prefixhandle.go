// Package prefixhandle pins a shop-review service's lock handle: the
// constructor takes the lock's name and draws a UUID from crypto/rand,
// and the key is a package-level prefix variable, never changed, before
// the handle's name. A handle per lock: its token is per lock, not per
// process: silent. The twin keeps one handle for every name, which its
// TryLock takes as a parameter, so one token serves every lock the
// process takes: reported.
package prefixhandle

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/redis/go-redis/v9"
)

var KeyLockPrefix = "redis_lock:"

const unlockScript = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func newID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

type SimpleLock struct {
	name string
	uuid string
	rdb  *redis.Client
}

func NewSimpleLock(name string, rdb *redis.Client) *SimpleLock {
	return &SimpleLock{name: name, uuid: newID(), rdb: rdb}
}

func (l *SimpleLock) TryLock(ctx context.Context, ttl time.Duration) (bool, error) {
	return l.rdb.SetNX(ctx, KeyLockPrefix+l.name, l.uuid, ttl).Result()
}

func (l *SimpleLock) Unlock(ctx context.Context) error {
	return l.rdb.Eval(ctx, unlockScript, []string{KeyLockPrefix + l.name}, l.uuid).Err()
}

type Locker struct {
	uuid string
	rdb  *redis.Client
}

func NewLocker(rdb *redis.Client) *Locker {
	return &Locker{uuid: newID(), rdb: rdb}
}

// Must report: one token for every name this process locks.
func (l *Locker) TryLock(ctx context.Context, name string, ttl time.Duration) (bool, error) {
	return l.rdb.SetNX(ctx, KeyLockPrefix+name, l.uuid, ttl).Result() // want `non-unique token`
}

func (l *Locker) Unlock(ctx context.Context, name string) error {
	return l.rdb.Eval(ctx, unlockScript, []string{KeyLockPrefix + name}, l.uuid).Err()
}
