// Package noadapter releases locks through clients the lock library has
// no adapter for (go-redis v7, garyburd/redigo): the message names the
// core, whose lock.Client the code would implement, and no fix is
// offered, since none would compile.
package noadapter

import (
	"time"

	garyburd "github.com/garyburd/redigo/redis"
	"github.com/go-redis/redis/v7"
)

func goRedis7(rdb *redis.Client, token string) error {
	if !rdb.SetNX("lock:feed", token, time.Minute).Val() {
		return nil
	}
	return rdb.Del("lock:feed").Err() // want "DEL of lock key `\"lock:feed\"` without an owner check; release with `lock\\.Release` \\(DELEX IFEQ or compare-and-delete\\)"
}

func garyburdRedigo(conn garyburd.Conn, token string) error {
	if _, err := garyburd.String(conn.Do("SET", "lock:job", token, "NX", "PX", 30000)); err != nil {
		return err
	}
	_, err := conn.Do("DEL", "lock:job") // want "DEL of lock key `\"lock:job\"` without an owner check; release with `lock\\.Release` \\(DELEX IFEQ or compare-and-delete\\)"
	return err
}
