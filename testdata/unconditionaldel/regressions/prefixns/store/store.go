// Package store pins issue 32's miss of a GET, a compare in Go and a DEL
// sent through a service's own wrappers, each of which puts the package's
// key prefix before the key it is given (KeyPrefix + key), with the reply
// turned into a string by a helper before the compare: two round trips,
// so the lock may pass to another holder between the compare and the DEL.
package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"

	"github.com/gomodule/redigo/redis"
)

const (
	KeyPrefix  = "shop_"
	lockPrefix = "lock_"
)

var (
	ErrHeld     = errors.New("lock held")
	ErrNotOwner = errors.New("not the lock's owner")
)

type Conn struct{ conn redis.Conn }

func (v *Conn) Get(key string) ([]byte, error) {
	return redis.Bytes(v.conn.Do("GET", KeyPrefix+key))
}

func (v *Conn) SetEx(key string, seconds int, value string) error {
	_, err := v.conn.Do("SETEX", KeyPrefix+key, seconds, value)
	return err
}

func (v *Conn) Del(key string) (interface{}, error) {
	return v.conn.Do("DEL", KeyPrefix+key)
}

// DelRaw deletes a key as given, without the prefix.
func (v *Conn) DelRaw(key string) (interface{}, error) {
	return v.conn.Do("DEL", key)
}

func toString(b []byte) string { return string(b) }

func (v *Conn) Lock(key string, seconds int) (string, error) {
	buf := make([]byte, 16)
	if _, err := rand.Read(buf); err != nil {
		return "", err
	}
	id := hex.EncodeToString(buf)
	ret, err := v.conn.Do("SET", KeyPrefix+lockPrefix+key, id, "NX", "EX", seconds)
	if err != nil {
		return "", err
	}
	if ret == nil {
		return "", ErrHeld
	}
	return id, nil
}

// Must report: the owner compare is a round trip before the DEL.
func (v *Conn) Unlock(key, id string) error {
	val, err := v.Get(lockPrefix + key)
	if err != nil {
		return err
	}
	if toString(val) != id {
		return ErrNotOwner
	}
	_, err = v.Del(lockPrefix + key) // want "GET on line \\d+ and this DEL of lock key `lockPrefix \\+ key` are two round trips"
	return err
}

// Near miss (silent): a cached profile, written and dropped through the
// same wrappers.
func (v *Conn) Cache(user, profile string) error {
	return v.SetEx("profile_"+user, 600, profile)
}

func (v *Conn) Forget(user string) error {
	_, err := v.Del("profile_" + user)
	return err
}
