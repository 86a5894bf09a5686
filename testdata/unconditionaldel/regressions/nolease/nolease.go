// Package nolease pins a lock with no lease: a session locker takes its
// key with SETNX and no TTL, and nothing ever gives the key one, so the
// lock is held until its holder deletes it. No lease can lapse, so the
// holder's plain DEL cannot remove a later holder's lock; the missing TTL
// is the acquire's defect (setnxexpire's finding), not the release's.
// The package gives no lock a lease; the twins, in noleasector, do.
package nolease

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type SessionLocker struct {
	rdb *redis.Client
	key string
}

func (l *SessionLocker) Lock(ctx context.Context) (bool, error) {
	return l.rdb.SetNX(ctx, "lock_"+l.key, 1, 0).Result()
}

// Near miss (silent): nobody else can hold the key while it is there.
func (l *SessionLocker) Unlock(ctx context.Context) error {
	return l.rdb.Del(ctx, "lock_"+l.key).Err()
}
