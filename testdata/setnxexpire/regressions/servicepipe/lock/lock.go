// Package lock takes several keys at once through the service's own
// transaction pipeline. Queued with the SETNX, the EXPIRE runs whatever
// the SETNX replies: every contender's attempt re-arms the holder's key.
package lock

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis/v7"

	"locklint.test/setnxexpire/regressions/servicepipe/store"
)

// Lock takes every key or none.
func Lock(cache store.Client, keys []string, token string, ttl time.Duration) error {
	ctx := context.Background()
	pipe := cache.TxPipeline(ctx)
	for _, k := range keys {
		pipe.SetNX("lock:"+k, token, 0) // want `the EXPIRE queued on line 22 runs even when this SETNX fails`
		pipe.Expire("lock:"+k, ttl)
	}
	res, err := pipe.Exec()
	if err != nil {
		return err
	}
	for i := 0; i < len(res); i += 2 {
		if ok, _ := res[i].(*redis.BoolCmd).Result(); !ok {
			return errors.New("some key is held")
		}
	}
	return nil
}

// LockTTL sets the TTL in the acquire itself.
func LockTTL(cache store.Client, keys []string, token string, ttl time.Duration) error {
	pipe := cache.TxPipeline(context.Background())
	for _, k := range keys {
		pipe.SetNX("lock:"+k, token, ttl)
	}
	res, err := pipe.Exec()
	if err != nil {
		return err
	}
	for _, r := range res {
		if ok, _ := r.(*redis.BoolCmd).Result(); !ok {
			return errors.New("some key is held")
		}
	}
	return nil
}
