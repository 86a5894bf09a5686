package redigo

import (
	"errors"

	"github.com/gomodule/redigo/redis"
)

func work() {}

func release(conn redis.Conn, key string) { conn.Do("DEL", key) }

// SET NX's reply is dropped: a held key gives a nil reply and no error.
func replyBlank(conn redis.Conn, token string) error {
	_, err := conn.Do("SET", "lock:sync", token, "NX", "PX", 30000) // want "only the error of SET NX is checked, but a held lock gives a nil reply and no error; check the reply, or use `lock\\.Obtain` via `fixredigo\\.Conn`$"
	if err != nil {
		return err
	}
	work()
	release(conn, "lock:sync")
	return nil
}

// Near miss: through redis.String a held key is ErrNil, so the error
// check is the miss check.
func throughString(conn redis.Conn, token string) error {
	_, err := redis.String(conn.Do("SET", "lock:sync", token, "NX", "PX", 30000))
	if err != nil {
		return err
	}
	work()
	release(conn, "lock:sync")
	return nil
}

// Near miss: the reply is tested against nil.
func replyChecked(conn redis.Conn, token string) error {
	reply, err := conn.Do("SET", "lock:sync", token, "NX", "PX", 30000)
	if err != nil {
		return err
	}
	if reply == nil {
		return errors.New("busy")
	}
	work()
	release(conn, "lock:sync")
	return nil
}

// SETNX replies 0 when the key is held; the statement drops it.
func setnxStatement(conn redis.Conn, token string) {
	conn.Do("SETNX", "lock:sync", token) // want "result of SETNX discarded"
	work()
	release(conn, "lock:sync")
}

// Near miss: SETNX through redis.Bool, tested.
func setnxChecked(conn redis.Conn, token string) {
	ok, err := redis.Bool(conn.Do("SETNX", "lock:sync", token))
	if err != nil || !ok {
		return
	}
	work()
	release(conn, "lock:sync")
}

// redis.Bool of SETNX: false, nil when held, and only the error is read.
func setnxBoolErrOnly(conn redis.Conn, token string) error {
	_, err := redis.Bool(conn.Do("SETNX", "lock:sync", token)) // want "only the error of SETNX is checked, but a held lock gives false \\(0\\) and no error"
	if err != nil {
		return err
	}
	work()
	release(conn, "lock:sync")
	return nil
}
