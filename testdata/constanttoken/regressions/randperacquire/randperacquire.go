// Package randperacquire pins an upgrade lock whose value is a math/rand
// number drawn per acquisition from the global source, which the runtime
// seeds at random per process from Go 1.20 on, kept in the handle the
// acquire makes and compared by the release (mirrorbits' database.Lock
// on a current Go): unique enough for the owner check that reads it.
// Its twins keep the draw where every acquisition shares it, or draw one
// number of a small range, and are reported; so is the same lock in a
// package that seeds the source from the clock (clockseeded).
package randperacquire

import (
	"errors"
	"math/rand"
	"strconv"

	"github.com/gomodule/redigo/redis"
)

var ErrAlreadyLocked = errors.New("already locked")

type Lock struct {
	pool  *redis.Pool
	name  string
	value string
}

// Near miss (silent): drawn here, for this acquisition.
func AcquireLock(pool *redis.Pool, name string) (*Lock, error) {
	l := &Lock{pool: pool, name: "LOCK_" + name, value: strconv.Itoa(rand.Int())}
	conn := pool.Get()
	defer conn.Close()
	_, err := redis.String(conn.Do("SET", l.name, l.value, "NX", "PX", "5000"))
	if err == redis.ErrNil {
		return nil, ErrAlreadyLocked
	} else if err != nil {
		return nil, err
	}
	return l, nil
}

const release = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func (l *Lock) Release() error {
	conn := l.pool.Get()
	defer conn.Close()
	_, err := conn.Do("EVAL", release, 1, l.name, l.value)
	return err
}

// Must report: one draw per process, shared by every acquisition.
var node = strconv.Itoa(rand.Int())

func AcquireShared(pool *redis.Pool, name string) (*Lock, error) {
	conn := pool.Get()
	defer conn.Close()
	if _, err := redis.String(conn.Do("SET", "LOCK_"+name, node, "NX", "PX", "5000")); err != nil { // want "non-unique token"
		return nil, err
	}
	return &Lock{pool: pool, name: "LOCK_" + name, value: node}, nil
}

// Must report: one number of a thousand.
func AcquireSmall(pool *redis.Pool, name string) (*Lock, error) {
	l := &Lock{pool: pool, name: "LOCK_" + name, value: strconv.Itoa(rand.Intn(1000))}
	conn := pool.Get()
	defer conn.Close()
	if _, err := redis.String(conn.Do("SET", l.name, l.value, "NX", "PX", "5000")); err != nil { // want "non-unique token"
		return nil, err
	}
	return l, nil
}
