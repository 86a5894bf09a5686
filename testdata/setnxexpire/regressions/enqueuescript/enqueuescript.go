// Package enqueuescript pins issue 32's shape 4, a task queue's enqueue
// script: it writes the task's hash only when the id is new (EXISTS, then
// HSET) and pushes the id on the pending list. The hash is the task's
// record until a worker deletes it on completion; a queue entry wants no
// TTL and guards no section, so it is no lock acquired without expiry.
// The twin is a hash lock's acquire script of the same form (EXISTS, then
// HSET of the holder) with no PEXPIRE, released by its holder: a holder
// that crashes keeps it forever.
package enqueuescript

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var enqueueCmd = redis.NewScript(`
if redis.call("EXISTS", KEYS[1]) == 1 then
	return 0
end
redis.call("HSET", KEYS[1], "msg", ARGV[1], "state", "pending", "pending_since", ARGV[3])
redis.call("LPUSH", KEYS[2], ARGV[2])
return 1`)

func taskKey(queue, id string) string { return "tq:{" + queue + "}:t:" + id }
func pendingKey(queue string) string  { return "tq:{" + queue + "}:pending" }

// Near miss (silent): a task record written once, consumed by a worker.
func Enqueue(ctx context.Context, rdb redis.UniversalClient, queue, id string, msg []byte) (bool, error) {
	n, err := enqueueCmd.Run(ctx, rdb, []string{taskKey(queue, id), pendingKey(queue)},
		msg, id, time.Now().UnixNano()).Int()
	return n == 1, err
}

func Done(ctx context.Context, rdb redis.UniversalClient, queue, id string) error {
	return rdb.Del(ctx, taskKey(queue, id)).Err()
}

var (
	holdCmd = redis.NewScript(`
if redis.call("EXISTS", KEYS[1]) == 0 then
	redis.call("HSET", KEYS[1], "owner", ARGV[1])
	return 1
end
return 0`)
	dropCmd = redis.NewScript(`
if redis.call("HGET", KEYS[1], "owner") == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)
)

// Must report: the script takes a lock and sets no TTL.
func Drain(ctx context.Context, rdb redis.UniversalClient, queue string, drain func()) error {
	owner := uuid.NewString()
	n, err := holdCmd.Run(ctx, rdb, []string{"tq:{" + queue + "}:lock"}, owner).Int() // want "acquired with no expiry"
	if err != nil || n == 0 {
		return err
	}
	defer dropCmd.Run(ctx, rdb, []string{"tq:{" + queue + "}:lock"}, owner)
	drain()
	return nil
}
