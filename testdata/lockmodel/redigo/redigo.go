// Package redigo shows what the model records for redigo's Do and Send
// (command names are case-insensitive strings), scripts and MULTI/EXEC.
package redigo

import (
	"github.com/gomodule/redigo/redis"
)

var release = redis.NewScript(1, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func commands(conn redis.Conn, id, token string) {
	conn.Do("SET", "lock:"+id, token, "NX", "PX", 3000) // want `^SET key="lock:" \+ id value=token ttl=3000 NX lock=name$`
	conn.Do("setnx", "lock:"+id, token)                 // want `^SETNX key="lock:" \+ id value=token ttl=none NX lock=name$`
	conn.Do("DEL", "x", "y")                            // want `^DEL key="x","y"$`
	release.Do(conn, "lock:"+id, token)                 // want `^EVAL key="lock:" \+ id lock=name$`
	conn.Send("MULTI")                                  // want `^MULTI$`
	conn.Send("DEL", "lock:"+id)                        // want `^DEL key="lock:" \+ id queued tx lock=name$`
	conn.Do("EXEC")                                     // want `^EXEC$`
}
