// Package clockuncompared pins the task lock of a configuration service:
// the acquire stores the time, new at each acquisition, and the release
// deletes the key without reading it. Nothing compares the value, so it
// proves nothing to anyone and its origin does not matter: the plain DEL
// is the defect, and unconditionaldel's to report. Where a release does
// compare the value, or the value leaves the function for a check this
// package cannot see, a clock reading is a weak owner and is reported.
package clockuncompared

import (
	"context"
	"fmt"
	"math/rand"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

type TaskQueue struct{ rdb *redis.Client }

func (tq *TaskQueue) taskLockKey(id string) string { return fmt.Sprintf("cc:apiTask:%s", id) }

// Silent: the time, compared by nothing; the release deletes the key.
func (tq *TaskQueue) lockTask(ctx context.Context, id string, ttl int64) (bool, error) {
	key := tq.taskLockKey(id)
	return tq.rdb.SetNX(ctx, key, time.Now(), time.Minute*time.Duration(ttl)).Result()
}

func (tq *TaskQueue) unlockTask(ctx context.Context, id string) error {
	key := tq.taskLockKey(id)
	return tq.rdb.Del(ctx, key).Err()
}

// Silent: a math/rand draw, compared by nothing.
func (tq *TaskQueue) lockRun(ctx context.Context, id string) (bool, error) {
	n := rand.Int63()
	return tq.rdb.SetNX(ctx, "lock:run:"+id, n, time.Minute).Result()
}

func (tq *TaskQueue) unlockRun(ctx context.Context, id string) error {
	return tq.rdb.Del(ctx, "lock:run:"+id).Err()
}

// Must report: the same clock value, but the release reads the key back
// and compares it with the caller's.
func (tq *TaskQueue) lockJob(ctx context.Context, id string) (bool, error) {
	return tq.rdb.SetNX(ctx, "lock:job:"+id, time.Now().UnixNano(), time.Minute).Result() // want "lock key `\"lock:job:\" \\+ id` acquired with a non-unique token \\(`time\\.Now`\\)"
}

func (tq *TaskQueue) unlockJob(ctx context.Context, id string, owner int64) error {
	v, err := tq.rdb.Get(ctx, "lock:job:"+id).Int64()
	if err != nil || v != owner {
		return err
	}
	return tq.rdb.Del(ctx, "lock:job:"+id).Err()
}

// Must report: the value is returned to the caller, which may compare it
// where this package cannot see.
func (tq *TaskQueue) lockNode(ctx context.Context, id string) (string, error) {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	ok, err := tq.rdb.SetNX(ctx, "lock:node:"+id, ts, 30*time.Second).Result() // want "lock key `\"lock:node:\" \\+ id` acquired with a non-unique token \\(`time\\.Now`"
	if err != nil || !ok {
		return "", err
	}
	return ts, nil
}

func (tq *TaskQueue) unlockNode(ctx context.Context, id string) error {
	return tq.rdb.Del(ctx, "lock:node:"+id).Err()
}

// Must report: the stored text is made from a clock reading that the
// caller gets back.
func (tq *TaskQueue) lockShard(ctx context.Context, id string) (int64, error) {
	ts := time.Now().UnixNano()
	ok, err := tq.rdb.SetNX(ctx, "lock:shard:"+id, strconv.FormatInt(ts, 10), 30*time.Second).Result() // want "lock key `\"lock:shard:\" \\+ id` acquired with a non-unique token \\(`time\\.Now`"
	if err != nil || !ok {
		return 0, err
	}
	return ts, nil
}

func (tq *TaskQueue) unlockShard(ctx context.Context, id string) error {
	return tq.rdb.Del(ctx, "lock:shard:"+id).Err()
}

// Silent: the time, compared by nothing; the "release" only lets the key
// expire later (a job's idempotency key).
func (tq *TaskQueue) AcquireJob(ctx context.Context, id string) (bool, error) {
	return tq.rdb.SetNX(ctx, "sentinel:lock:"+id, time.Now().Unix(), 10*time.Minute).Result()
}

func (tq *TaskQueue) ReleaseJob(ctx context.Context, id string) error {
	return tq.rdb.Expire(ctx, "sentinel:lock:"+id, 10*time.Minute).Err()
}

// Silent: the time is read by the one caller of an unexported helper and
// passed in, named nowhere else there (a seckill's per-user lock); the
// release deletes the key without reading it.
func (tq *TaskQueue) Buy(ctx context.Context, user, goods int) error {
	if err := tq.tryLock(ctx, user, goods, time.Now().Unix()); err != nil {
		return err
	}
	defer tq.unlock(ctx, user, goods)
	return nil
}

func (tq *TaskQueue) tryLock(ctx context.Context, user, goods int, lockID int64) error {
	k := fmt.Sprintf("seckill:lock:%d:%d", user, goods)
	ok, err := tq.rdb.SetNX(ctx, k, lockID, time.Minute).Result()
	if err != nil || !ok {
		return fmt.Errorf("busy")
	}
	return nil
}

func (tq *TaskQueue) unlock(ctx context.Context, user, goods int) error {
	return tq.rdb.Del(ctx, fmt.Sprintf("seckill:lock:%d:%d", user, goods)).Err()
}

// Must report: the caller keeps the time it passes in, and may compare it
// where this package cannot see.
func (tq *TaskQueue) Reserve(ctx context.Context, seat int) (int64, error) {
	at := time.Now().UnixNano()
	if err := tq.holdSeat(ctx, seat, at); err != nil {
		return 0, err
	}
	return at, nil
}

func (tq *TaskQueue) holdSeat(ctx context.Context, seat int, at int64) error {
	ok, err := tq.rdb.SetNX(ctx, fmt.Sprintf("seat:lock:%d", seat), at, time.Minute).Result() // want "lock key `fmt.Sprintf\\(\"seat:lock:%d\", seat\\)` acquired with a non-unique token \\(parameter `at`, given `time\\.Now`"
	if err != nil || !ok {
		return fmt.Errorf("busy")
	}
	return nil
}

func (tq *TaskQueue) freeSeat(ctx context.Context, seat int) error {
	return tq.rdb.Del(ctx, fmt.Sprintf("seat:lock:%d", seat)).Err()
}

// Must report: an exported helper's callers are out of sight.
func (tq *TaskQueue) HoldRoom(ctx context.Context, room int, at int64) error {
	ok, err := tq.rdb.SetNX(ctx, fmt.Sprintf("room:lock:%d", room), at, time.Minute).Result() // want "lock key `fmt.Sprintf\\(\"room:lock:%d\", room\\)` acquired with a non-unique token \\(parameter `at`, given `time\\.Now`"
	if err != nil || !ok {
		return fmt.Errorf("busy")
	}
	return nil
}

func (tq *TaskQueue) FreeRoom(ctx context.Context, room int) error {
	return tq.rdb.Del(ctx, fmt.Sprintf("room:lock:%d", room)).Err()
}

func (tq *TaskQueue) book(ctx context.Context, room int) error {
	return tq.HoldRoom(ctx, room, time.Now().Unix())
}
