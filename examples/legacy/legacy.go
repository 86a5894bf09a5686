// Package legacy is an older part of the service that still talks to
// Redis through redigo.
package legacy

import (
	"github.com/gomodule/redigo/redis"
)

// Mutex is a redigo-based lock copied between services for years.
type Mutex struct {
	pool  *redis.Pool
	name  string
	token string
}

// Lock takes the mutex once.
func (m *Mutex) Lock() (bool, error) {
	conn := m.pool.Get()
	defer conn.Close()
	n, err := redis.Int(conn.Do("SETNX", m.name, m.token)) // BUG(setnxexpire): EXPIRE is a second command
	if err != nil || n == 0 {
		return false, err
	}
	_, err = conn.Do("EXPIRE", m.name, 30)
	return true, err
}

// Unlock releases it.
func (m *Mutex) Unlock() error {
	conn := m.pool.Get()
	defer conn.Close()
	_, err := conn.Do("DEL", m.name) // BUG(unconditionaldel): no owner check
	return err
}

var unlockScript = redis.NewScript(1, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// SafeLock is the correct redigo version: SET NX EX in one command.
func (m *Mutex) SafeLock() (bool, error) {
	conn := m.pool.Get()
	defer conn.Close()
	reply, err := redis.String(conn.Do("SET", m.name, m.token, "NX", "EX", 30))
	if err == redis.ErrNil {
		return false, nil
	}
	return reply == "OK", err
}

// SafeUnlock deletes the key only if it still holds this token.
func (m *Mutex) SafeUnlock() error {
	conn := m.pool.Get()
	defer conn.Close()
	_, err := unlockScript.Do(conn, m.name, m.token)
	return err
}
