// Package kv is a service's own Redis package over go-redis v6: Lock
// takes a key with SETNX and says whether it got it (giving a key that a
// dead holder left with no TTL its lease back), Unlock deletes it.
package kv

import (
	"time"

	"github.com/go-redis/redis"
)

var Client *redis.Client

// Lock reports whether the key was taken.
func Lock(key string, seconds int) bool {
	name := "pay:lock:" + key
	ttl := time.Duration(seconds) * time.Second
	if ok, err := Client.SetNX(name, 1, ttl).Result(); err != nil {
		return false
	} else if ok {
		return true
	} else if Client.TTL(name).Val() == -1 {
		Client.Expire(name, ttl)
	}
	return false
}

// Unlock drops the key.
func Unlock(key string) bool {
	n, err := Client.Del("pay:lock:" + key).Result()
	return err == nil && n > 0
}

// Mark records that a key was seen and reports whether it is new: no
// lock, nothing releases it.
func Mark(key string) bool {
	ok, _ := Client.SetNX("seen:"+key, 1, time.Hour).Result()
	return ok
}
