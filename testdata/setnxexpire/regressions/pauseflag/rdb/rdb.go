// Package rdb pins a queue's pause flag, whose key another package's
// maker names for what it is: Pause sets it with SETNX of the time and no
// expiry (a miss says "already paused") and Unpause deletes it. Nothing
// runs while it is held and nobody waits for it: a flag, not a lock,
// though a take in one function and a delete in another join through the
// maker. Silent. The twin's maker names a lock, taken the same way with
// no expiry: reported.
package rdb

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"locklint.test/setnxexpire/regressions/pauseflag/base"
)

type RDB struct{ client *redis.Client }

func (r *RDB) Pause(qname string) error {
	key := base.PausedKey(qname)
	ok, err := r.client.SetNX(context.Background(), key, time.Now().Unix(), 0).Result()
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("queue %q is already paused", qname)
	}
	return nil
}

func (r *RDB) Unpause(qname string) error {
	deleted, err := r.client.Del(context.Background(), base.PausedKey(qname)).Result()
	if err != nil {
		return err
	}
	if deleted == 0 {
		return fmt.Errorf("queue %q is not paused", qname)
	}
	return nil
}

func (r *RDB) LockScheduler(qname, id string) (bool, error) {
	return r.client.SetNX(context.Background(), base.SchedulerLockKey(qname), id, 0).Result() // want "acquired with no expiry"
}

func (r *RDB) UnlockScheduler(qname string) error {
	return r.client.Del(context.Background(), base.SchedulerLockKey(qname)).Err()
}
