// Package watchredigo pins an optimistic lock over a redigo-shaped
// connection of the package's own: WATCH the key, GET the holder's
// expiry time, and when it has passed, MULTI, SET and PEXPIRE, EXEC. The
// EXEC fails if anyone wrote the key since the WATCH, so the GET and the
// SET are one check-and-set, not two round trips. The twin renews with
// MULTI, SET and PEXPIRE and no WATCH: it rewrites whoever holds it now.
package watchredigo

import (
	"strconv"
	"time"
)

// Conn is the part of redigo's redis.Conn the lock uses.
type Conn interface {
	Do(commandName string, args ...interface{}) (reply interface{}, err error)
	Send(commandName string, args ...interface{}) error
}

type Lock struct {
	Conn Conn
	Key  string
	TTL  int64
}

func now() int64 { return time.Now().UnixNano() / int64(time.Millisecond) }

// Near miss (silent): the SET and PEXPIRE run only if the watched key is
// unchanged since the GET.
func (l *Lock) Lock() (bool, error) {
	lkey := "L:{" + l.Key + "}"
	l.Conn.Send("WATCH", lkey)
	res, err := l.Conn.Do("GET", lkey)
	if err != nil {
		return false, err
	}
	var expires int64
	if b, ok := res.([]byte); ok {
		expires, _ = strconv.ParseInt(string(b), 10, 64)
	}
	if expires >= now() {
		l.Conn.Do("UNWATCH")
		return false, nil
	}
	l.Conn.Send("MULTI")
	l.Conn.Send("SET", lkey, now()+l.TTL)
	l.Conn.Send("PEXPIRE", lkey, l.TTL)
	res, err = l.Conn.Do("EXEC")
	return err == nil && res != nil, err
}

// Must report: the same writes with no WATCH, whoever holds the key.
func (l *Lock) KeepAlive() error {
	lkey := "L:{" + l.Key + "}"
	l.Conn.Send("MULTI")
	l.Conn.Send("SET", lkey, now()+l.TTL) // want "SET of lock key `lkey` without NX overwrites whoever holds it"
	l.Conn.Send("PEXPIRE", lkey, l.TTL)   // want "PEXPIRE of lock key `lkey` without an owner check"
	_, err := l.Conn.Do("EXEC")
	return err
}
