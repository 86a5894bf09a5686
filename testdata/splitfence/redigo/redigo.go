package redigo

import (
	"errors"

	"github.com/gomodule/redigo/redis"
)

var errBusy = errors.New("busy")

// SET NX, then INCR in a second round trip.
func afterSet(conn redis.Conn, name, token string) (int64, error) {
	if _, err := redis.String(conn.Do("SET", "lock:"+name, token, "NX", "PX", 30000)); err != nil {
		return 0, errBusy
	}
	return redis.Int64(conn.Do("INCR", "lock:"+name+":fence")) // want "INCR of fence `\"lock:\" \\+ name \\+ \":fence\"` after the SET NX on line 13 is a separate round trip; use `lock\\.WithFencing` via `fixredigo\\.Conn`$"
}

// SETNX, then INCRBY of the lock's epoch.
func epoch(conn redis.Conn, token string) (int64, error) {
	n, err := redis.Int(conn.Do("SETNX", "mutex:ledger", token))
	if err != nil || n == 0 {
		return 0, errBusy
	}
	return redis.Int64(conn.Do("INCRBY", "mutex:ledger:epoch", 1)) // want "INCR of fence `\"mutex:ledger:epoch\"` after the SETNX on line 21 is a separate round trip"
}

// Sent in one pipeline, not in a transaction.
func pipelined(conn redis.Conn, token string) error {
	conn.Send("SET", "lock:feed", token, "NX", "PX", 30000)
	conn.Send("INCR", "lock:feed:fence") // want "INCR of fence `\"lock:feed:fence\"` is pipelined with the SET NX on line 30, not in a transaction"
	return conn.Flush()
}

// Near misses.

// MULTI/EXEC: atomic with the acquire.
func multi(conn redis.Conn, token string) ([]any, error) {
	conn.Send("MULTI")
	conn.Send("SET", "lock:feed", token, "NX", "PX", 30000)
	conn.Send("INCR", "lock:feed:fence")
	return redis.Values(conn.Do("EXEC"))
}

// One script: the fix.
var acquire = redis.NewScript(2, `
if not redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return 0 end
return redis.call("INCR", KEYS[2])`)

func script(conn redis.Conn, token string) (int64, error) {
	return redis.Int64(acquire.Do(conn, "lock:feed", "lock:feed:fence", token, 30000))
}

// A statistics counter under the lock.
func stats(conn redis.Conn, token string) error {
	if _, err := conn.Do("SET", "lock:feed", token, "NX", "PX", 30000); err != nil {
		return err
	}
	_, err := conn.Do("INCR", "stats:feed:rebuilds")
	return err
}
