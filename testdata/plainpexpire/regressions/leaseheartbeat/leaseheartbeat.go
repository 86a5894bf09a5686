// Package leaseheartbeat pins the twin of noleaseheartbeat: the task
// takes its key with a lease, and the heartbeat's plain SET both drops
// that lease and overwrites whoever holds the key once it lapsed.
package leaseheartbeat

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

const closeLock = "app:lock:auto-close"

func heartBeat(conn redis.Conn, key string) {
	_, _ = conn.Do("SET", key, time.Now().UnixMilli())
}

func AutoClose(conn redis.Conn, done <-chan struct{}, step func() bool) {
	reply, err := conn.Do("SET", closeLock, time.Now().UnixMilli(), "NX", "PX", 30000)
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
		heartBeat(conn, closeLock) // want "SET of lock key `closeLock` without NX or IFEQ overwrites whoever holds it"
		if !step() {
			return
		}
	}
}
