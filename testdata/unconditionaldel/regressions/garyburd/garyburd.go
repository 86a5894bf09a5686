// Package garyburd pins redigo's old import path, which services still
// use: the same commands as github.com/gomodule/redigo.
package garyburd

import (
	"github.com/garyburd/redigo/redis"
)

func unlock(pool *redis.Pool, name string) error {
	conn := pool.Get()
	defer conn.Close()
	_, err := conn.Do("DEL", "lock:"+name) // want "DEL of lock key `\"lock:\" \\+ name` without an owner check"
	return err
}

// Near miss: compare-and-delete in one script.
func safeUnlock(pool *redis.Pool, name, token string) error {
	conn := pool.Get()
	defer conn.Close()
	_, err := conn.Do("EVAL", `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`, 1, "lock:"+name, token)
	return err
}

// Near miss: a cache key.
func evict(pool *redis.Pool, id string) error {
	conn := pool.Get()
	defer conn.Close()
	_, err := conn.Do("DEL", "cache:"+id)
	return err
}
