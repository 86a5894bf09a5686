// Package noleasector pins locks whose SETNX sets no TTL but that get a
// lease all the same, the twins of nolease: a constructor takes the key
// with a TTL and stores it in the handle, whose Lock takes it again with
// no TTL and whose Unlock deletes it; and a job lock whose SETNX is
// followed by a separate EXPIRE. A lease can lapse, so the plain DEL can
// delete a later holder's lock.
package noleasector

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Lock struct {
	rdb *redis.Client
	key string
}

func New(ctx context.Context, rdb *redis.Client, key string) (*Lock, bool) {
	if !rdb.SetNX(ctx, key, 1, 5*time.Minute).Val() {
		return nil, false
	}
	return &Lock{rdb: rdb, key: key}, true
}

func (l *Lock) Lock(ctx context.Context) bool {
	return l.rdb.SetNX(ctx, l.key, 1, 0).Val()
}

func (l *Lock) Unlock(ctx context.Context) error {
	return l.rdb.Del(ctx, l.key).Err() // want "DEL of lock key `l.key`"
}

type JobLocker struct {
	rdb *redis.Client
	key string
}

func (l *JobLocker) Lock(ctx context.Context) (bool, error) {
	ok, err := l.rdb.SetNX(ctx, "joblock_"+l.key, 1, 0).Result()
	if err == nil && ok {
		l.rdb.Expire(ctx, "joblock_"+l.key, time.Minute)
	}
	return ok, err
}

// Must report: the EXPIRE gives the key a lease that can lapse.
func (l *JobLocker) Unlock(ctx context.Context) error {
	return l.rdb.Del(ctx, "joblock_"+l.key).Err() // want "DEL of lock key `\"joblock_\" \\+ l.key`"
}
