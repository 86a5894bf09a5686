package redigo

import (
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
)

type locker struct {
	pool *redis.Pool
}

func lockKey(name string) string { return fmt.Sprintf("app:%s:lock", name) }

// The watchdog of a redigo lock: PEXPIRE through Do, every few seconds.
func (l *locker) heartbeat(name string, ttl time.Duration, stop <-chan struct{}) {
	t := time.NewTicker(ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			conn := l.pool.Get()
			_, err := conn.Do("PEXPIRE", lockKey(name), ttl.Milliseconds()) // want "PEXPIRE of lock key `lockKey\\(name\\)` without an owner check; renew with `lock\\.Refresh` via `fixredigo\\.Conn` \\(SET IFEQ or compare-and-PEXPIRE\\)$"
			conn.Close()
			if err != nil {
				return
			}
		}
	}
}

// EXPIRE in seconds, through redis.DoWithTimeout.
func extendMutex(c redis.Conn, id string) error {
	_, err := redis.DoWithTimeout(c, time.Second, "EXPIRE", "mutex:"+id, 30) // want "EXPIRE of lock key `\"mutex:\" \\+ id` without an owner check"
	return err
}

// Near miss: SET IFEQ renews only while the value is still our token.
func extendIFEQ(c redis.Conn, id, token string) (bool, error) {
	reply, err := redis.String(c.Do("SET", "mutex:"+id, token, "IFEQ", token, "PX", 30000))
	return reply == "OK", err
}

var extendScript = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`)

// Near miss: the compare-and-PEXPIRE script.
func extendScripted(c redis.Conn, id, token string) (bool, error) {
	return redis.Bool(extendScript.Do(c, "mutex:"+id, token, 30000))
}

// Near miss: a session TTL.
func touch(c redis.Conn, sid string) error {
	_, err := c.Do("EXPIRE", "sess:"+sid, 3600)
	return err
}
