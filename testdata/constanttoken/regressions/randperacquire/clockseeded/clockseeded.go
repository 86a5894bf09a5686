// Package clockseeded is randperacquire's lock in a package that seeds
// math/rand's global source from the clock at init (mirrorbits, Go
// 1.13): processes started in one tick draw the same values, and the
// draws can be guessed.
package clockseeded

import (
	"errors"
	"math/rand"
	"strconv"
	"time"

	"github.com/gomodule/redigo/redis"
)

var ErrAlreadyLocked = errors.New("already locked")

func init() {
	rand.Seed(time.Now().UnixNano())
}

// Must report: the clock decides the draw.
func AcquireLock(pool *redis.Pool, name string) (string, error) {
	value := strconv.Itoa(rand.Int())
	conn := pool.Get()
	defer conn.Close()
	_, err := redis.String(conn.Do("SET", "LOCK_"+name, value, "NX", "PX", "5000")) // want "non-unique token"
	if err == redis.ErrNil {
		return "", ErrAlreadyLocked
	}
	return value, err
}

const release = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func Release(pool *redis.Pool, name, value string) error {
	conn := pool.Get()
	defer conn.Close()
	_, err := conn.Do("EVAL", release, 1, "LOCK_"+name, value)
	return err
}
