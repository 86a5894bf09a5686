package redigo

import (
	"fmt"

	"github.com/gomodule/redigo/redis"
)

const acquireLua = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('INCR', KEYS[2]) end return 0`

var acquire = redis.NewScript(2, acquireLua)

// redigo has no Cluster client: only the lock and fence pair is reported.
func obtainDo(conn redis.Conn, id, token string) (int64, error) {
	return redis.Int64(conn.Do("EVAL", acquireLua, 2, "lock:"+id, "fence:"+id, token, 30000)) // want "`\"lock:\" \\+ id` and `\"fence:\" \\+ id` may hash to different Cluster slots; share one \\{hash tag\\}, or use `lock\\.WithFencing` via `fixredigo\\.Conn`$"
}

func obtainScript(conn redis.Conn, job, token string) (int64, error) {
	lock := fmt.Sprintf("jobs:%s:lock", job)
	fence := fmt.Sprintf("jobs:%s:fence", job)
	return redis.Int64(acquire.Do(conn, lock, fence, token, 30000)) // want "`lock` and `fence` may hash to different Cluster slots"
}

// Near miss: tagged keys.
func tagged(conn redis.Conn, job, token string) (int64, error) {
	return redis.Int64(acquire.Do(conn, fmt.Sprintf("jobs:{%s}:lock", job), fmt.Sprintf("jobs:{%s}:fence", job), token, 30000))
}

// Near miss: two keys that are no lock and fence, on a client that does
// not talk to a Cluster.
func counters(conn redis.Conn, page string) error {
	_, err := conn.Do("EVAL", `redis.call('INCR', KEYS[1]) return redis.call('INCR', KEYS[2])`, 2, "hits:"+page, "hits:all")
	return err
}

// Near miss: the key count makes the fence an argument, not a key.
var acquireOneKey = redis.NewScript(1, `return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`)

func oneKey(conn redis.Conn, id, token string) error {
	_, err := acquireOneKey.Do(conn, "lock:"+id, "fence:"+id, token)
	return err
}
