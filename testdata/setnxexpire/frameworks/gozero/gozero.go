// Package gozero pins SETNX then EXPIRE through go-zero's Redis client.
package gozero

import (
	"github.com/zeromicro/go-zero/core/stores/redis"
)

func take(rds *redis.Redis, name, token string) bool {
	ok, err := rds.Setnx("lock:"+name, token) // want `SETNX and the EXPIRE on line 11 are separate commands`
	if err == nil && ok {
		rds.Expire("lock:"+name, 30)
	}
	return ok
}

// Near miss: SETNX with the TTL in one command.
func takeEx(rds *redis.Redis, name, token string) bool {
	ok, _ := rds.SetnxEx("lock:"+name, token, 30)
	return ok
}
