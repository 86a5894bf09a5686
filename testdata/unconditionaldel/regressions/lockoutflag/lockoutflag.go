// Package lockoutflag pins issue 32's shape 4, a login lockout: failures
// are counted with INCR, the fifth sets a flag under login:lock:<user>
// with SETEX, and a good login deletes both. The flag is a state read by
// EXISTS, written by whoever saw the fifth failure and cleared by whoever
// logs in: no one holds it, so no owner can be checked. The twin is a
// mutex on the same user, taken with SET NX around the password check so
// that two logins do not race the counter, released with a plain DEL.
package lockoutflag

import (
	"errors"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/google/uuid"
)

var ErrLocked = errors.New("account locked, try again later")

type Auth struct {
	pool  *redis.Pool
	check func(user, password string) bool
}

// Near miss (silent): the flag and the counter are cleared after a good login.
func (a *Auth) Login(user, password string) error {
	c := a.pool.Get()
	defer c.Close()
	if locked, _ := redis.Bool(c.Do("EXISTS", "login:lock:"+user)); locked {
		return ErrLocked
	}
	if !a.check(user, password) {
		n, err := redis.Int(c.Do("INCR", "login:fail:"+user))
		if err == nil && n >= 5 {
			c.Do("SETEX", "login:lock:"+user, 900, 1)
		}
		return errors.New("wrong password")
	}
	_, err := c.Do("DEL", "login:lock:"+user, "login:fail:"+user)
	return err
}

// Must report: a per-user mutex released without an owner check.
func (a *Auth) LoginSerialized(user, password string) error {
	c := a.pool.Get()
	defer c.Close()
	key := "login:mutex:" + user
	if _, err := redis.String(c.Do("SET", key, uuid.NewString(), "PX", int64(5*time.Second/time.Millisecond), "NX")); err != nil {
		return ErrLocked
	}
	defer c.Do("DEL", key) // want "DEL of lock key `key` without an owner check"
	return a.Login(user, password)
}
