// Package acquirettl pins an EXPIRE that belongs to the acquire before it:
// an old-style lock takes its key with SETNX (value: the lease's end) or,
// when the stored lease has passed, takes it over with GETSET, and then,
// only when it won, sets the key's TTL. Nothing runs between the take and
// the EXPIRE but Redis commands and the standard library, and each EXPIRE
// follows its own take: it sets the new holder's lease, not a renewal of
// a lock someone else may hold by now. The GETSET itself is reported: a
// takeover with no owner check that drops the key's TTL (a loser's
// GETSET drops the winner's). The twins renew with a plain EXPIRE after
// the work has started, and in a watchdog loop.
package acquirettl

import (
	"context"
	"math"
	"time"

	"github.com/redis/go-redis/v9"
)

// Near miss (silent): the EXPIRE sets the winner's lease; the GETSET's
// takeover is the defect.
func lock(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration) (acquired bool, err error) {
	if rdb.SetNX(ctx, key, time.Now().Add(ttl).UnixNano(), ttl).Val() {
		acquired = true
	} else {
		var expires int64
		expires, err = rdb.Get(ctx, key).Int64()
		if err == nil && time.Unix(0, expires).Before(time.Now()) {
			var prev int64
			prev, err = rdb.GetSet(ctx, key, time.Now().Add(ttl).UnixNano()).Int64() // want "GETSET of lock key `key` takes it over with no owner check and drops its TTL"
			acquired = err == nil && prev == expires
		}
	}
	if acquired {
		secs := int(math.Ceil(ttl.Seconds()))
		_, err = rdb.Expire(ctx, key, time.Duration(secs)*time.Second).Result()
	}
	return acquired, err
}

func unlock(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Del(ctx, key)
}

// Must report: the lease is stretched after the first half of the work,
// when another holder may have taken the key.
func migrate(ctx context.Context, rdb *redis.Client, first, second func()) {
	if !rdb.SetNX(ctx, "migrate:lock", "m1", time.Minute).Val() {
		return
	}
	first()
	rdb.Expire(ctx, "migrate:lock", time.Minute) // want "EXPIRE of lock key `\"migrate:lock\"` without an owner check"
	second()
}

// Must report: a watchdog renews with a plain EXPIRE on every tick.
func watch(ctx context.Context, rdb *redis.Client, tok string, done <-chan struct{}) {
	if !rdb.SetNX(ctx, "report:lock", tok, 30*time.Second).Val() {
		return
	}
	for {
		select {
		case <-done:
			return
		case <-time.After(10 * time.Second):
		}
		rdb.Expire(ctx, "report:lock", 30*time.Second) // want "EXPIRE of lock key `\"report:lock\"` without an owner check"
	}
}

// Must report: right after the win, a goroutine starts renewing through
// a helper with a plain EXPIRE.
func hold(ctx context.Context, rdb *redis.Client, key, tok string, stop <-chan struct{}) bool {
	for {
		ok, err := rdb.SetNX(ctx, key, tok, 30*time.Second).Result()
		if err != nil {
			return false
		}
		if ok {
			go renew(ctx, rdb, key, stop) // want "EXPIRE of lock key `key` without an owner check"
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func renew(ctx context.Context, rdb *redis.Client, key string, stop <-chan struct{}) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			rdb.Expire(ctx, key, 30*time.Second)
		}
	}
}
