// Package gozero pins go-zero's Setex used as an acquire: with no NX it
// always succeeds, so every worker thinks it holds the lock.
package gozero

import (
	"github.com/zeromicro/go-zero/core/stores/redis"
)

func take(rds *redis.Redis, shop string) error {
	return rds.Setex("lock:shop:"+shop, "1", 5) // want "SET of lock key `\"lock:shop:\" \\+ shop` without NX overwrites whoever holds it"
}

// Near miss: SETNX with the TTL in one command.
func takeNX(rds *redis.Redis, shop, token string) (bool, error) {
	return rds.SetnxEx("lock:shop:"+shop, token, 5)
}

// Near miss: a cache entry with a TTL.
func cache(rds *redis.Redis, id, v string) error {
	return rds.Setex("cache:"+id, v, 60)
}
