package issue18facts

import (
	"time"

	redigo "github.com/gomodule/redigo/redis"

	"locklint.test/unboundedretry/issue18policy"
)

func acquire(c redigo.Conn, key, token string) bool { // want acquire:"acquires lock via"
	reply, err := redigo.String(c.Do("SET", key, token, "NX", "PX", 10000))
	return err == nil && reply == "OK"
}

func redigoDeadline(c redigo.Conn, key, token string, d time.Duration) bool { // want redigoDeadline:"acquires lock via"
	deadline := time.Now().Add(d)
	for !acquire(c, key, token) {
		if issue18policy.Expired(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// Near miss: the deadline handed over moves with the clock.
func redigoDeadlineMoving(c redigo.Conn, key, token string, d time.Duration) bool { // want redigoDeadlineMoving:"acquires lock via"
	for !acquire(c, key, token) { // want "lock acquisition retried with no bound, at a constant interval; add a bound and jitter, or use `lock\\.WithMaxWait` via `fixredigo\\.Conn`$"
		if issue18policy.Expired(time.Now().Add(d)) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

func redigoBudget(c redigo.Conn, key, token string) error { // want redigoBudget:"acquires lock via"
	b := issue18policy.NewBudget(3)
	for {
		reply, err := redigo.String(c.Do("SET", key, token, "NX", "PX", 10000))
		if err == nil && reply == "OK" {
			return nil
		}
		if !b.Take() {
			return errBusy
		}
	}
}

// Near miss: a budget per iteration.
func redigoBudgetPerIteration(c redigo.Conn, key, token string) error { // want redigoBudgetPerIteration:"acquires lock via"
	for { // want `lock acquisition retried with no bound`
		reply, err := redigo.String(c.Do("SET", key, token, "NX", "PX", 10000))
		if err == nil && reply == "OK" {
			return nil
		}
		if b := issue18policy.NewBudget(3); !b.Take() {
			return errBusy
		}
	}
}
