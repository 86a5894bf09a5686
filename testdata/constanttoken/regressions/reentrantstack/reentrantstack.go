// Package reentrantstack pins a Redisson-style reentrant owner built from
// a satori UUID drawn once per process and the goroutine's id parsed out
// of runtime.Stack, taken by a function that starts its own renewal: one
// goroutine re-enters its lock, every other goroutine is another owner.
// The twin joins a constant with the goroutine id: goroutine ids repeat
// across processes, so two processes are one owner.
package reentrantstack

import (
	"bytes"
	"runtime"
	"strconv"

	"github.com/gomodule/redigo/redis"
	uuid "github.com/satori/go.uuid"
)

var lockID = uuid.NewV4().String()

func goroutineID() uint64 {
	b := make([]byte, 64)
	b = b[:runtime.Stack(b, false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	b = b[:bytes.IndexByte(b, ' ')]
	n, _ := strconv.ParseUint(string(b), 10, 64)
	return n
}

var acquire = redis.NewScript(1, `
if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
	redis.call('hincrby', KEYS[1], ARGV[2], 1)
	redis.call('pexpire', KEYS[1], ARGV[1])
	return nil
end
return redis.call('pttl', KEYS[1])`)

var release = redis.NewScript(1, `
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then return nil end
if redis.call('hincrby', KEYS[1], ARGV[1], -1) > 0 then return 0 end
return redis.call('del', KEYS[1])`)

type ReentrantLock struct {
	pool  *redis.Pool
	name  string
	lease int
}

func (l *ReentrantLock) renewLockStart(owner string) {}

// Near miss (silent): the process's UUID and the goroutine's id.
func (l *ReentrantLock) tryAcquire() (int, error) {
	conn := l.pool.Get()
	defer conn.Close()
	ttl, err := acquire.Do(conn, l.name, l.lease, lockID+":"+strconv.FormatUint(goroutineID(), 10))
	if err != nil {
		return 1, err
	}
	if ttl != nil {
		return int(ttl.(int64)), nil
	}
	l.renewLockStart(lockID)
	return 0, nil
}

func (l *ReentrantLock) Unlock() error {
	conn := l.pool.Get()
	defer conn.Close()
	_, err := release.Do(conn, l.name, lockID+":"+strconv.FormatUint(goroutineID(), 10))
	return err
}

// Must report: a constant and the goroutine's id.
func (l *ReentrantLock) tryAcquireFixed() (int, error) {
	conn := l.pool.Get()
	defer conn.Close()
	ttl, err := acquire.Do(conn, l.name, l.lease, "node:"+strconv.FormatUint(goroutineID(), 10)) // want "acquired with a non-unique token"
	if err != nil {
		return 1, err
	}
	if ttl != nil {
		return int(ttl.(int64)), nil
	}
	l.renewLockStart("node")
	return 0, nil
}
