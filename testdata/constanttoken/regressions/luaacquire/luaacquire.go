// Package luaacquire pins acquires written as Lua scripts: the token they
// store is the ARGV the script sets, and it must be unique too.
package luaacquire

import (
	"context"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
)

const acquireSrc = `return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`

func acquire(ctx context.Context, rdb *goredis.Client, name string) (bool, error) {
	n, err := rdb.Eval(ctx, acquireSrc, []string{"lock:" + name}, "1", 30000).Result() // want "lock key `\"lock:\" \\+ name` acquired with a non-unique token \\(the constant `\"1\"`\\)"
	return n != nil, err
}

var takeScript = redis.NewScript(1, `if redis.call("EXISTS", KEYS[1]) == 1 then return 0 end
redis.call("SET", KEYS[1], ARGV[1])
redis.call("PEXPIRE", KEYS[1], ARGV[2])
return 1`)

func take(conn redis.Conn, name string) (bool, error) {
	return redis.Bool(takeScript.Do(conn, "mutex:"+name, "locked", 5000)) // want "lock key `\"mutex:\" \\+ name` acquired with a non-unique token \\(the constant `\"locked\"`\\)"
}

// Near miss: the same scripts with a token made per acquisition.
func acquireOwned(ctx context.Context, rdb *goredis.Client, name, token string) (bool, error) {
	n, err := rdb.Eval(ctx, acquireSrc, []string{"lock:" + name}, token, 30000).Result()
	return n != nil, err
}

func takeOwned(conn redis.Conn, name, token string) (bool, error) {
	return redis.Bool(takeScript.Do(conn, "mutex:"+name, token, 5000))
}
