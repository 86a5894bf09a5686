package issue18helpers

import (
	"time"

	redigo "github.com/gomodule/redigo/redis"
)

// attempts is a counter the caller's loop steps through a pointer.
type attempts struct{ n, max int }

// exhausted does not step n: the caller's loop does.
func (a *attempts) exhausted() bool { return a.n >= a.max } // want exhausted:"bound: fields on n, max"

func (a *attempts) take() bool { // want take:"bound: budget on receiver"
	a.n++
	return a.n <= a.max
}

func redigoTake(c redigo.Conn, key, token string) error { // want redigoTake:"acquires lock via"
	a := &attempts{max: 4}
	for {
		if _, err := redigo.String(c.Do("SET", key, token, "NX", "PX", 5000)); err == nil {
			return nil
		}
		if !a.take() {
			return errBusy
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The loop steps the field the helper compares.
func redigoFieldStepped(c redigo.Conn, key, token string) error { // want redigoFieldStepped:"acquires lock via"
	a := &attempts{max: 4}
	for ; !a.exhausted(); a.n++ {
		if _, err := redigo.String(c.Do("SET", key, token, "NX", "PX", 5000)); err == nil {
			return nil
		}
	}
	return errBusy
}

func redigoClosureCounter(c redigo.Conn, key, token string) error { // want redigoClosureCounter:"acquires lock via"
	n := 0
	more := func() bool { return n < 3 }
	for {
		if _, err := redigo.String(c.Do("SET", key, token, "NX", "PX", 5000)); err == nil {
			return nil
		}
		n++
		if !more() {
			return errBusy
		}
	}
}

// Near miss: the closure's counter is never stepped.
func redigoClosureStuck(c redigo.Conn, key, token string) error { // want redigoClosureStuck:"acquires lock via"
	n := 0
	more := func() bool { return n < 3 }
	for { // want `lock acquisition retried with no bound`
		if _, err := redigo.String(c.Do("SET", key, token, "NX", "PX", 5000)); err == nil {
			return nil
		}
		if !more() {
			return errBusy
		}
	}
}

// Near miss: nothing steps the field the helper compares.
func redigoFieldStill(c redigo.Conn, key, token string) error { // want redigoFieldStill:"acquires lock via"
	a := &attempts{max: 4}
	for !a.exhausted() { // want `lock acquisition retried with no bound`
		if _, err := redigo.String(c.Do("SET", key, token, "NX", "PX", 5000)); err == nil {
			return nil
		}
	}
	return errBusy
}
