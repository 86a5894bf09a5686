// Package luaacquire pins an acquire script that checks EXISTS, then SETs
// and PEXPIREs the key it just created: the PEXPIRE is part of taking the
// lock, not an unguarded renewal.
package luaacquire

import (
	"github.com/gomodule/redigo/redis"
)

var takeScript = redis.NewScript(1, `if redis.call("EXISTS", KEYS[1]) == 1 then return 0 end
redis.call("SET", KEYS[1], ARGV[1])
redis.call("PEXPIRE", KEYS[1], ARGV[2])
return 1`)

func take(conn redis.Conn, name, token string) (bool, error) {
	return redis.Bool(takeScript.Do(conn, "lock:"+name, token, 5000))
}

// Must report: a renewal script with no owner check.
var renewScript = redis.NewScript(1, `return redis.call("PEXPIRE", KEYS[1], ARGV[1])`) // want "Lua line 1: PEXPIRE of KEYS\\[1\\] \\(lock key `\"lock:\" \\+ name`\\) with no owner check"

func renew(conn redis.Conn, name string) error {
	_, err := renewScript.Do(conn, "lock:"+name, 5000)
	return err
}
