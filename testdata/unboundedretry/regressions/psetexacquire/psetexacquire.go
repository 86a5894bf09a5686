// Package psetexacquire pins a lock taken by a script that GETs the key,
// returns 0 when another holds it, and PSETEXes it otherwise: a take
// with its TTL, as SET NX PX is. Lock retries it until it succeeds, and
// the helper drops the script's error, so a Redis that is down keeps it
// looping for ever. The near miss gives up after a timeout.
package psetexacquire

import (
	"time"

	"github.com/go-redis/redis"
)

var RedisClient *redis.Client

func setIfFree(key, value string, expire time.Duration) (int, error) {
	script := "local value = redis.call('get', KEYS[1]);" +
		"if value ~= false and value ~= ARGV[1] then return 0 end;" +
		"if redis.call('psetex', KEYS[1], ARGV[2], ARGV[1]) then return 1 else return 0 end;"
	res, err := RedisClient.Eval(script, []string{key}, value, expire.Milliseconds()).Int()
	return res, err
}

type Lock struct {
	id     string
	expire time.Duration
}

func (l *Lock) try(key string) bool {
	ok, _ := setIfFree(key, l.id, l.expire)
	return ok == 1
}

// Must report: only success ends the loop.
func (l *Lock) Lock(key string) {
	for { // want "lock acquisition retried with no bound"
		if l.try(key) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Near miss (silent): a timeout ends it.
func (l *Lock) LockTimeout(key string, timeout time.Duration) bool {
	start := time.Now()
	for {
		if l.try(key) {
			return true
		}
		if time.Since(start) > timeout {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}
