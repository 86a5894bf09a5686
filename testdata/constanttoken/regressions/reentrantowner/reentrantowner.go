// Package reentrantowner pins a Redisson-style reentrant lock's owner: a
// UUID drawn once per process joined with the goroutine's id, so that
// one goroutine re-enters its own lock and every other goroutine, here
// or in another process, is another owner. The twin joins the host name
// with the goroutine id: two processes that share a host name and reuse
// goroutine ids (containers) are one owner.
package reentrantowner

import (
	"context"
	"os"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/petermattis/goid"
	"github.com/redis/go-redis/v9"
)

var processID = uuid.NewString()

var host, _ = os.Hostname()

var lockScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
	redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
	redis.call('PEXPIRE', KEYS[1], ARGV[2])
	return 1
end
return 0`)

var unlockScript = redis.NewScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) > 0 then return 1 end
return redis.call('DEL', KEYS[1])`)

func owner() string { return processID + ":" + strconv.FormatInt(goid.Get(), 10) }

func hostOwner() string { return host + ":" + strconv.FormatInt(goid.Get(), 10) }

// Near miss (silent): the process's UUID and the goroutine's id.
func Lock(ctx context.Context, rdb *redis.Client, name string) (bool, error) {
	n, err := lockScript.Run(ctx, rdb, []string{"lock:" + name}, owner(), 30000).Int()
	return n == 1, err
}

func Unlock(ctx context.Context, rdb *redis.Client, name string) error {
	return unlockScript.Run(ctx, rdb, []string{"lock:" + name}, owner()).Err()
}

// Must report: the host name and the goroutine's id.
func LockHost(ctx context.Context, rdb *redis.Client, name string) (bool, error) {
	return rdb.SetNX(ctx, "lock:host:"+name, hostOwner(), 30*time.Second).Result() // want "non-unique token"
}

func UnlockHost(ctx context.Context, rdb *redis.Client, name string) error {
	return unlockScript.Run(ctx, rdb, []string{"lock:host:" + name}, hostOwner()).Err()
}
