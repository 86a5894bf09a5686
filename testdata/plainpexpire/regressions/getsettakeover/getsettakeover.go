// Package getsettakeover pins the old "expiry in the value" lock's
// takeover: when the stored second has passed, a waiter writes its own
// with GETSET, a plain write with no owner check that drops the key's
// TTL and overwrites a holder whose lease has not run out (the value is
// truncated to the second, the TTL is not). Reported for go-redis and
// redigo. The near miss swaps a counter's value, which is no lock.
package getsettakeover

import (
	"context"
	"strconv"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
)

func Lock(ctx context.Context, rdb *goredis.Client, key string) (bool, int64) {
	for i := 0; i < 10; i++ {
		exp := time.Now().Unix() + 10
		if ok, _ := rdb.SetNX(ctx, key, exp, 10*time.Second).Result(); ok {
			return true, exp
		}
		old, err := rdb.Get(ctx, key).Result()
		if err != nil {
			continue
		}
		if n, _ := strconv.ParseInt(old, 10, 64); n > time.Now().Unix() {
			continue
		}
		exp = time.Now().Unix() + 10
		prev, _ := rdb.GetSet(ctx, key, exp).Result() // want "GETSET of lock key `key` takes it over with no owner check and drops its TTL"
		if prev == old {
			return true, exp
		}
	}
	return false, 0
}

func LockConn(conn redis.Conn, key string) bool {
	exp := time.Now().Unix() + 10
	if ok, _ := redis.String(conn.Do("SET", key, exp, "NX", "EX", 10)); ok == "OK" {
		return true
	}
	old, err := redis.Int64(conn.Do("GET", key))
	if err != nil || old > time.Now().Unix() {
		return false
	}
	_, err = conn.Do("GETSET", key, time.Now().Unix()+10) // want "GETSET of lock key `key` takes it over with no owner check and drops its TTL"
	return err == nil
}

func ResetCount(ctx context.Context, rdb *goredis.Client, page string) int64 {
	n, _ := rdb.GetSet(ctx, "stats:views:"+page, 0).Int64()
	return n
}
