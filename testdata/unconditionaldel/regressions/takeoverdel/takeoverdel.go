// Package takeoverdel pins the "expiry in the value" lock of the old
// SETNX documentation, taken with no TTL: the stored end time is its only
// lease, and a contender that finds it past takes the key over with
// GETSET. The lock therefore changes hands while its holder still runs,
// and the release, which compares the stored time with the clock (no
// owner's value) before its DEL, deletes whoever took it over: reported.
// The near miss has no takeover: a key taken with no TTL that only its
// holder's DEL gives back, and that only its holder's heartbeat rewrites
// with a plain SET, cannot pass to anyone meanwhile (its missing TTL is
// setnxexpire's), silent.
package takeoverdel

import (
	"strconv"
	"time"

	"github.com/gomodule/redigo/redis"
)

func join(parts ...string) string {
	s := ""
	for _, p := range parts {
		s += p + "."
	}
	return s
}

const lockKey = "lock"

func Lock(conn redis.Conn, key string, timeout int64, tries int) (bool, error) {
	k := join(lockKey, key)
	for i := 0; i < tries; i++ {
		now := time.Now().UnixNano() / int64(time.Millisecond)
		val, err := redis.Int(conn.Do("setnx", k, now+timeout+1))
		if err != nil {
			return false, err
		}
		if val == 1 {
			return true, nil
		}
		held, err := redis.Int64(conn.Do("get", k))
		if err != nil {
			continue
		}
		if held < now {
			old, err := redis.Int64(conn.Do("getset", k, now+timeout+1))
			if err == nil && old == held {
				return true, nil
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false, nil
}

func Unlock(conn redis.Conn, key string) (bool, error) {
	k := join(lockKey, key)
	now := time.Now().UnixNano() / int64(time.Millisecond)
	held, err := redis.Int64(conn.Do("get", k))
	if err != nil {
		return false, err
	}
	if now > held {
		return true, nil
	}
	_, err = conn.Do("del", k) // want "DEL of lock key `k`"
	return err == nil, err
}

// Near miss (silent): no takeover, no TTL: only the holder's DEL gives
// the key back, and its heartbeat's plain SET rewrites its own key.
func Hold(conn redis.Conn, job string) (bool, error) {
	return redis.Bool(conn.Do("SETNX", "job.lock."+job, strconv.FormatInt(time.Now().Unix(), 10)))
}

func Beat(conn redis.Conn, job string) error {
	_, err := conn.Do("SET", "job.lock."+job, strconv.FormatInt(time.Now().Unix(), 10))
	return err
}

func Drop(conn redis.Conn, job string) error {
	_, err := conn.Do("DEL", "job.lock."+job)
	return err
}
