// Package redigo pins the redigo form of a late WATCH: the holder is
// compared with a plain GET, and only then WATCH, MULTI, DEL, EXEC. The
// near miss sends WATCH first.
package redigo

import (
	"errors"

	"github.com/gomodule/redigo/redis"
)

var conn redis.Conn

// Must report: the GET is before the WATCH.
func Unlock(name, token string) error {
	key := "LOCK:" + name
	reply, err := conn.Do("GET", key)
	if err != nil {
		return err
	}
	if string(reply.([]uint8)) != token {
		return errors.New("held by another")
	}
	conn.Do("WATCH", key)
	conn.Do("MULTI")
	conn.Do("DEL", key) // want "GET on line 17 and this DEL of lock key `key` are two round trips"
	_, err = conn.Do("EXEC")
	return err
}

// Near miss (silent): WATCH, then the holder's GET, then the transaction.
func UnlockWatched(name, token string) error {
	key := "LOCK:" + name
	conn.Do("WATCH", key)
	reply, err := redis.String(conn.Do("GET", key))
	if err != nil {
		return err
	}
	if reply != token {
		conn.Do("UNWATCH")
		return errors.New("held by another")
	}
	conn.Do("MULTI")
	conn.Do("DEL", key)
	_, err = conn.Do("EXEC")
	return err
}
