// Package releasescriptvar pins issue 32's shape 6, a release script run
// through a variable whose name says lock: lockScript holds the
// compare-and-delete of the lock's token, and running it releases the
// lock; it takes nothing, so it is no acquire without expiry. The twin's
// script variable takes the lock with SET NX and no PX.
package releasescriptvar

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var lockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then
	return redis.call("del", KEYS[1])
else
	return 0
end`)

var lockTakeScript = redis.NewScript(`return redis.call("set", KEYS[1], ARGV[1], "NX")`)

type RedisLock struct {
	rdb   *redis.Client
	key   string
	token string
}

func (l *RedisLock) Lock(ctx context.Context) (bool, error) {
	l.token = uuid.NewString()
	return l.rdb.SetNX(ctx, l.key, l.token, 30*time.Second).Result()
}

// Near miss (silent): the script behind lockScript releases.
func (l *RedisLock) Unlock(ctx context.Context) error {
	return lockScript.Run(ctx, l.rdb, []string{l.key}, l.token).Err()
}

// Must report: the script behind lockTakeScript acquires with no expiry.
func (l *RedisLock) LockForever(ctx context.Context) error {
	l.token = uuid.NewString()
	return lockTakeScript.Run(ctx, l.rdb, []string{l.key}, l.token).Err() // want "acquired with no expiry"
}
