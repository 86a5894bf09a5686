// Package ttlrepair pins the waiter of the SETNX-then-EXPIRE recipe:
// when its SETNX fails, it reads the key's TTL and, only when the key
// has none (-1), gives it the lease its holder would have set. A holder's
// key always has a TTL, so that EXPIRE cuts no lease; it bounds a key
// whose holder died between SETNX and EXPIRE. The twin extends the key
// whenever it is held, cutting or stretching whoever holds it.
package ttlrepair

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
	gredis "github.com/gomodule/redigo/redis"
)

var rdb *redis.Client

// Near miss (silent): the repair of a key with no TTL.
func Wait(ctx context.Context, key string) error {
	ttl := rdb.TTL(ctx, "lock:"+key)
	if ttl.Err() != nil {
		return ttl.Err()
	}
	if ttl.Val() == -1 {
		return rdb.Expire(ctx, "lock:"+key, 5*time.Second).Err()
	}
	return nil
}

// Near miss (silent): the same over redigo.
func WaitConn(conn gredis.Conn, key string) error {
	reply, err := conn.Do("TTL", "lock:"+key)
	if err != nil {
		return err
	}
	if reply.(int64) == -1 {
		_, err = conn.Do("EXPIRE", "lock:"+key, 5)
	}
	return err
}

// Must report: the lease of whoever holds the key is changed.
func Stretch(ctx context.Context, key string) error {
	if rdb.TTL(ctx, "lock:"+key).Val() > 0 {
		return rdb.Expire(ctx, "lock:"+key, 5*time.Second).Err() // want "EXPIRE of lock key"
	}
	return nil
}
