package redigo

import (
	"github.com/gomodule/redigo/redis"
)

type Mutex struct {
	pool  *redis.Pool
	name  string
	value string
}

func (m *Mutex) Unlock() error {
	conn := m.pool.Get()
	defer conn.Close()
	_, err := conn.Do("DEL", m.name) // want "DEL of lock key `m\\.name` without an owner check"
	return err
}

// Near miss: compare-and-delete through a redigo Script.
var unlockScript = redis.NewScript(1, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func (m *Mutex) SafeUnlock() error {
	conn := m.pool.Get()
	defer conn.Close()
	_, err := unlockScript.Do(conn, m.name, m.value)
	return err
}

// GET-compare-then-DEL over redigo.
func release(conn redis.Conn, key, token string) error {
	v, err := redis.String(conn.Do("GET", key))
	if err != nil {
		return err
	}
	if v != token {
		return nil
	}
	_, err = conn.Do("DEL", key) // want "GET on line 32 and this DEL of lock key `key` are two round trips"
	return err
}

// Near miss: WATCH, GET, MULTI, DEL, EXEC: optimistic and atomic.
func releaseWatched(conn redis.Conn, key, token string) error {
	conn.Do("WATCH", key)
	v, _ := redis.String(conn.Do("GET", key))
	if v != token {
		conn.Do("UNWATCH")
		return nil
	}
	conn.Send("MULTI")
	conn.Send("DEL", key)
	_, err := conn.Do("EXEC")
	return err
}

// Near miss: DELEX IFEQ.
func delex(conn redis.Conn, token string) {
	conn.Do("DELEX", "lock:feed", "IFEQ", token)
}

// Near miss: DEL of a session key.
func logout(conn redis.Conn, sid string) {
	conn.Do("DEL", "session:"+sid)
}
