// Package noleaseheartbeat pins a task worker's heartbeat on a lock that
// has no lease: the task takes its key with SET NX and no expiry (the
// acquire's defect, setnxexpire's), and a helper it calls in its loop
// rewrites the key's timestamp with a plain SET. With no lease there is
// nothing to extend and no later holder to overwrite: silent. A SET that
// gives the key a lease without an owner check is a renewal: reported.
package noleaseheartbeat

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

const closeLock = "app:lock:auto-close"

var last int64

func heartBeat(conn redis.Conn, key string) {
	now := time.Now().UnixMilli()
	if now-last < 10*60*1000 {
		return
	}
	last = now
	_, _ = conn.Do("SET", key, now)
}

func AutoClose(conn redis.Conn, done <-chan struct{}, step func() bool) {
	reply, err := conn.Do("SET", closeLock, time.Now().UnixMilli(), "NX")
	if err != nil || reply == nil {
		return
	}
	defer conn.Do("DEL", closeLock)
	for {
		select {
		case <-done:
			return
		default:
		}
		heartBeat(conn, closeLock)
		if !step() {
			return
		}
	}
}

const remindLock = "app:lock:remind"

func Remind(conn redis.Conn, done <-chan struct{}, step func() bool) {
	reply, err := conn.Do("SET", remindLock, time.Now().UnixMilli(), "NX")
	if err != nil || reply == nil {
		return
	}
	defer conn.Do("DEL", remindLock)
	for step() {
		_, _ = conn.Do("SET", remindLock, time.Now().UnixMilli(), "EX", 60) // want "SET of lock key `remindLock` without NX or IFEQ overwrites whoever holds it"
	}
}
