// Package lock takes several keys at once: one SETNX and one EXPIRE per
// key, queued in the service's own transaction pipeline, whose replies
// are read after Exec. The queued acquires report through Exec, not
// through their own results.
package lock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-redis/redis/v7"

	"locklint.test/uncheckedacquire/regressions/servicepipe/store"
)

type MLock struct {
	cache store.Client
	keys  []string
	token string
}

// Lock takes every key or none.
func (l *MLock) Lock(keys []string, ttl time.Duration) (bool, error) {
	ctx := context.Background()
	pipe := l.cache.TxPipeline(ctx)
	for _, k := range keys {
		key := "lock:" + k
		pipe.SetNX(key, l.token, 0)
		pipe.Expire(key, ttl)
	}
	res, err := pipe.Exec()
	if err != nil {
		return false, err
	}
	var taken []string
	for i, r := range res {
		if i%2 != 0 {
			continue
		}
		if ok, _ := r.(*redis.BoolCmd).Result(); ok {
			taken = append(taken, "lock:"+keys[i/2])
		}
	}
	if len(taken) < len(keys) {
		if len(taken) > 0 {
			l.cache.Del(ctx, taken...)
		}
		return false, errors.New("some key is held")
	}
	l.keys = taken
	return true, nil
}

// Queue takes the keys through a pipeline it is given.
func Queue(pipe store.Pipeliner, keys []string, token string, ttl time.Duration) error {
	for _, k := range keys {
		pipe.SetNX("lock:"+k, token, ttl)
	}
	res, err := pipe.Exec()
	if err != nil {
		return err
	}
	for _, r := range res {
		if ok, _ := r.(*redis.BoolCmd).Result(); !ok {
			return fmt.Errorf("%s is held", r.Args()[1])
		}
	}
	return nil
}

// Rebuild takes one key through the client itself and drops the reply:
// the rebuild runs whether or not the lock was taken.
func Rebuild(cache store.Client, id, token string, run func()) {
	ctx := context.Background()
	cache.SetNX(ctx, "lock:rebuild:"+id, token, time.Minute) // want "result of SET NX discarded"
	run()
	cache.Del(ctx, "lock:rebuild:"+id)
}
