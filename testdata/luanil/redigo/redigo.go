package redigo

import (
	"github.com/gomodule/redigo/redis"
)

// EVAL through Conn.Do: a refresh that never reports a lost lock.
func refresh(conn redis.Conn, job, token string) error {
	_, err := conn.Do("EVAL", "local v = redis.call('GET', KEYS[1]) if v == nil then return -1 end return redis.call('PEXPIRE', KEYS[1], ARGV[1])", 1, "lock:"+job, 30000) // want "Lua line 1: GET reply == nil never holds"
	return err
}

// (*redis.Script).Do, the key count from NewScript.
var acquire = redis.NewScript(1, `if redis.call('GET', KEYS[1]) == nil then return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end return 0`) // want "Lua line 1: GET reply == nil never holds"

func obtain(conn redis.Conn, job, token string) (bool, error) {
	n, err := redis.Int(acquire.Do(conn, "lock:"+job, token, 30000))
	return n == 1, err
}

// Near miss: the same two scripts compared with false.
var acquireFalse = redis.NewScript(1, `if redis.call('GET', KEYS[1]) == false then return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end return 0`)

func near(conn redis.Conn, job, token string) error {
	if _, err := acquireFalse.Do(conn, "lock:"+job, token, 30000); err != nil {
		return err
	}
	_, err := conn.Do("EVAL", "local v = redis.call('GET', KEYS[1]) if v == false then return -1 end return redis.call('PEXPIRE', KEYS[1], ARGV[1])", 1, "lock:"+job, 30000)
	return err
}
