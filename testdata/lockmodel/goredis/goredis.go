// Package goredis shows what the model records for go-redis v9 calls.
package goredis

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func commands(ctx context.Context, rdb *redis.Client, id, token string) {
	rdb.SetNX(ctx, "lock:"+id, token, 10*time.Second)                               // want `^SET key="lock:" \+ id value=token ttl=10 \* time.Second NX lock=name$`
	rdb.SetNX(ctx, "lock:"+id, token, 0)                                            // want `^SETNX key="lock:" \+ id value=token ttl=none NX lock=name$`
	rdb.Set(ctx, "cache:"+id, "v", time.Minute)                                     // want `^SET key="cache:" \+ id value="v" ttl=time.Minute$`
	rdb.SetArgs(ctx, "job:"+id, token, redis.SetArgs{Mode: "NX", TTL: time.Second}) // want `^SET key="job:" \+ id value=token ttl=time.Second NX$`
	rdb.Del(ctx, "a", "b")                                                          // want `^DEL key="a","b"$`
	rdb.PExpire(ctx, "lock:"+id, time.Second)                                       // want `^PEXPIRE key="lock:" \+ id ttl=time.Second lock=name$`
	if rdb.Get(ctx, "owner:"+id).Val() == token {                                   // want `^GET key="owner:" \+ id compared$`
		return
	}
	rdb.Incr(ctx, "fence:"+id)                                                                                          // want `^INCR key="fence:" \+ id$`
	rdb.Eval(ctx, "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])", []string{"res:" + id}, token, 500) // want `^EVAL key="res:" \+ id value=token NX$`
}

func batches(ctx context.Context, rdb *redis.Client, key, token string) {
	pipe := rdb.Pipeline()
	pipe.SetNX(ctx, key, token, 0)     // want `^SETNX key=key value=token ttl=none NX queued lock=acquire$`
	pipe.Expire(ctx, key, time.Second) // want `^EXPIRE key=key ttl=time.Second queued lock=acquire$`
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, key) // want `^DEL key=key queued tx lock=acquire$`
		return nil
	})
	rdb.Watch(ctx, func(tx *redis.Tx) error { // want `^WATCH key=key lock=acquire$`
		tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, key) // want `^DEL key=key queued tx watched lock=acquire$`
			return nil
		})
		return nil
	}, key)
}

// The lock is known by the function: a key parameter of TryUnlock.
func TryUnlock(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Del(ctx, key) // want `^DEL key=key lock=func$`
}

func counter(ctx context.Context, rdb *redis.Client, key string) bool {
	n, _ := rdb.Incr(ctx, key).Result() // want `^INCR key=key takesfirst$`
	return n == 1
}

// An INCR whose 1 only starts the key's TTL counts in a window: a lockout
// count, not a lock, though its key says lock.
func lockout(ctx context.Context, rdb *redis.Client, user string) {
	n := rdb.Incr(ctx, "login:lock:"+user).Val() // want `^INCR key="login:lock:" \+ user window$`
	if n == 1 {
		rdb.Expire(ctx, "login:lock:"+user, time.Hour) // want `^EXPIRE key="login:lock:" \+ user ttl=time.Hour$`
	}
}

// Near miss: the count decides more than the TTL.
func lockoutChecked(ctx context.Context, rdb *redis.Client, ip string) bool {
	n := rdb.Incr(ctx, "signup:lock:"+ip).Val() // want `^INCR key="signup:lock:" \+ ip takesfirst lock=name$`
	if n == 1 {
		rdb.Expire(ctx, "signup:lock:"+ip, time.Hour) // want `^EXPIRE key="signup:lock:" \+ ip ttl=time.Hour lock=name$`
	}
	return n > 5
}

// The digest conditions (Redis 8.4) compare the value as IFEQ does; IFNE
// acts when it differs, a condition the model does not read.
func conditions(ctx context.Context, rdb *redis.Client, id, token string, sum uint64) {
	rdb.SetIFDEQ(ctx, "job:"+id, token, sum, time.Second)                                                // want `^SET key="job:" \+ id value=token ttl=time.Second IFEQ$`
	rdb.SetArgs(ctx, "job:"+id, token, redis.SetArgs{Mode: "IFDEQ", MatchDigest: sum, TTL: time.Second}) // want `^SET key="job:" \+ id value=token ttl=time.Second IFEQ$`
	rdb.SetArgs(ctx, "job:"+id, token, redis.SetArgs{Mode: "IFNE", MatchValue: "x", TTL: time.Second})   // want `^SET key="job:" \+ id value=token ttl=time.Second unknown$`
	rdb.DelExArgs(ctx, "job:"+id, redis.DelExArgs{Mode: "IFDEQ", MatchDigest: sum})                      // want `^DELEX key="job:" \+ id IFEQ$`
}
