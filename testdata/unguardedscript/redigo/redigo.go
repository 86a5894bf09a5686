package redigo

import (
	"github.com/gomodule/redigo/redis"
)

// EVAL through Conn.Do.
func release(conn redis.Conn, job string) error {
	_, err := conn.Do("EVAL", "return redis.call('DEL', KEYS[1])", 1, "lock:"+job) // want "Lua line 1: DEL of KEYS\\[1\\] \\(lock key `\"lock:\" \\+ job`\\) with no owner check"
	return err
}

// (*redis.Script).Do: the key count comes from NewScript.
var renew = redis.NewScript(1, `return redis.call('PEXPIRE', KEYS[1], ARGV[1])`) // want "Lua line 1: PEXPIRE of KEYS\\[1\\] \\(lock key `\"leader:\" \\+ group`\\) with no owner check"

func heartbeat(conn redis.Conn, group string) error {
	_, err := renew.Do(conn, "leader:"+group, 30000)
	return err
}

// Near miss: the key count is 0, so "lock:"+job is an argument and KEYS[1]
// is not known to be a lock.
var byArg = redis.NewScript(0, `return redis.call('DEL', KEYS[1])`)

func release0(conn redis.Conn, job string) error {
	_, err := byArg.Do(conn, "lock:"+job)
	return err
}

// Near miss: compare-and-delete, as in the legacy example.
var unlockScript = redis.NewScript(1, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func unlock(conn redis.Conn, job, token string) error {
	_, err := unlockScript.Do(conn, "lock:"+job, token)
	return err
}
