// Package rutil pins a monitoring platform's key-value helpers: Get, Set
// and Delete forward their key under a prefix, and a Lock helper takes a
// key with SETNX of 1 and a lease, which Unlock deletes with a plain DEL.
// The cron jobs of another package defer Unlock after their Lock: the DEL
// is a release with no owner check, reported in the helper.
package rutil

import (
	"encoding/json"
	"log"
	"sync"
	"time"

	"locklint.test/unconditionaldel/regressions/unlockutil/conf"
)

var mu sync.Mutex

const (
	noExpiry = time.Duration(0)
	prefix   = "psmp:"
)

func Get(key string) string {
	v, err := conf.Rdb.Get(conf.Ctx, prefix+key).Result()
	if err != nil {
		log.Println(err)
	}
	return v
}

func Set(key, value string, seconds int) bool {
	ex := noExpiry
	if seconds > 0 {
		ex = time.Duration(seconds) * time.Second
	}
	return conf.Rdb.Set(conf.Ctx, prefix+key, value, ex).Err() == nil
}

func GetObj(key string, v any) {
	data, err := conf.Rdb.Get(conf.Ctx, prefix+key).Result()
	if err != nil {
		log.Println(err)
	}
	_ = json.Unmarshal([]byte(data), v)
}

func Delete(key string) bool {
	return conf.Rdb.Del(conf.Ctx, prefix+key).Err() == nil
}

func Lock(key string, expired int) bool {
	ex := noExpiry
	if expired > 0 {
		ex = time.Duration(expired) * time.Second
	}
	mu.Lock()
	defer mu.Unlock()
	ok, err := conf.Rdb.SetNX(conf.Ctx, prefix+key, 1, ex).Result()
	if err != nil {
		log.Println(err)
	}
	return ok
}

func UnLock(key string) int64 {
	n, err := conf.Rdb.Del(conf.Ctx, prefix+key).Result() // want "DEL of lock key `prefix \\+ key` \\(key of `UnLock`\\) without an owner check"
	if err != nil {
		log.Println(err)
		return 0
	}
	return n
}

type Profile struct{ Name string }

func LoadProfile(id string) (Profile, error) {
	var p Profile
	data, err := conf.Rdb.Get(conf.Ctx, "profile:"+id).Bytes()
	if err != nil {
		return p, err
	}
	return p, json.Unmarshal(data, &p)
}

func ClaimProfile(id string) bool {
	return conf.Rdb.SetNX(conf.Ctx, "profile:"+id, "{}", time.Hour).Val()
}

func DropProfile(id string) {
	conf.Rdb.Del(conf.Ctx, "profile:"+id)
}
