// Package impossibleexit pins a retry loop whose only exit can never be
// taken: SetNX gives false with every error, so `err != nil && ok` holds
// on no outcome, and Lock goes on acquiring after it got the key, as a
// periodic job would. Its exit says it meant to stop on success: it is a
// retry that nothing ends. The near miss is a leader's standby loop,
// which goes on after winning by design and leaves on an error, an exit
// that an outcome can take: silent.
package impossibleexit

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Locker struct {
	rdb *redis.Client
	key string
}

func (l *Locker) Lock(token string) {
	for { // want "lock acquisition retried with no bound"
		ok, err := l.rdb.SetNX(context.Background(), "lock_"+l.key, token, time.Minute).Result()
		if err != nil && ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (l *Locker) Unlock() {
	l.rdb.Del(context.Background(), "lock_"+l.key)
}

func Standby(ctx context.Context, rdb *redis.Client, id string, lead func()) error {
	for {
		ok, err := rdb.SetNX(ctx, "leader:lock", id, 10*time.Second).Result()
		if err != nil {
			return err
		}
		if ok {
			lead()
		}
		time.Sleep(time.Second)
	}
}
