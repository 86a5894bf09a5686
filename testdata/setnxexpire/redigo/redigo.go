package redigo

import (
	"context"

	"github.com/gomodule/redigo/redis"
)

func acquire(pool *redis.Pool, name, token string) (bool, error) {
	conn := pool.Get()
	defer conn.Close()
	ok, err := redis.Int(conn.Do("SETNX", "lock:"+name, token)) // want `SETNX and the EXPIRE on line 16 are separate commands`
	if err != nil || ok == 0 {
		return false, err
	}
	_, err = conn.Do("EXPIRE", "lock:"+name, 30)
	return true, err
}

// Near miss: SET NX EX in one command.
func acquireAtomic(conn redis.Conn, name, token string) (bool, error) {
	reply, err := redis.String(conn.Do("SET", "lock:"+name, token, "NX", "EX", 30))
	return reply == "OK", err
}

// SET NX without a TTL, then PEXPIRE through DoContext.
func acquireCtx(ctx context.Context, conn redis.Conn, key, token string) error {
	if _, err := redis.DoContext(conn, ctx, "SET", key, token, "NX"); err != nil { // want `SETNX and the PEXPIRE on line 31 are separate commands`
		return err
	}
	_, err := redis.DoContext(conn, ctx, "PEXPIRE", key, 30000)
	return err
}

// MULTI/EXEC: the EXPIRE is queued and runs even when SETNX fails.
func transaction(conn redis.Conn, token string) error {
	conn.Send("MULTI")
	conn.Send("SETNX", "mutex:billing", token) // want `the EXPIRE queued on line 39 runs even when this SETNX fails`
	conn.Send("EXPIRE", "mutex:billing", 10)
	_, err := conn.Do("EXEC")
	return err
}

// Lock key with no expiry at all.
func forever(conn redis.Conn) {
	conn.Do("SETNX", "leader", "me") // want "lock key `\"leader\"` acquired with no expiry; set the TTL in the acquire \\(SET NX PX\\) or use `lock\\.Obtain` via `fixredigo\\.Conn`$"
}

func resign(conn redis.Conn) {
	conn.Do("DEL", "leader")
}

// Near miss: a marker key set once.
func marker(conn redis.Conn, id string) {
	conn.Do("SETNX", "seen:"+id, 1)
}

// Near miss: flags the model cannot read stay silent.
func opaque(conn redis.Conn, args []interface{}) {
	conn.Do("SET", args...)
}
