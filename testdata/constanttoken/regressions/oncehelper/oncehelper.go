// Package oncehelper pins a scheduler's per-fire claims taken through a
// take helper that returns whether it took the key: a one-shot job's
// claim of "once" and a periodic fire's claim of a constant, each with a
// key built from a constant text at the call, and nothing in the package
// gives any of them back or reads them. A marker: nothing compares its
// value. The twin's key is given back after the work, with no owner
// check that its constant could satisfy.
package oncehelper

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Job struct {
	rdb *redis.Client
	ID  string
}

func (j *Job) acquireLock(key string, value any, ttl time.Duration) bool {
	ok, err := j.rdb.SetNX(context.Background(), key, value, ttl).Result()
	return ok && err == nil
}

func (j *Job) Run(once bool, now time.Time, work func()) {
	if once {
		if !j.acquireLock(fmt.Sprintf("LOCK_ONCE_%s", j.ID), "once", 30*time.Second) {
			return
		}
	} else if !j.acquireLock(fmt.Sprintf("LOCK_%s_%d", j.ID, now.Unix()), 60, 5*time.Second) {
		return
	}
	work()
}

type Task struct {
	rdb *redis.Client
	ID  string
}

func (t *Task) take(key string, value any) bool {
	ok, err := t.rdb.SetNX(context.Background(), key, value, time.Minute).Result()
	return ok && err == nil
}

// Must report: the key is given back after the work, with an owner check
// that the constant passes for every holder.
func (t *Task) Run(work func()) {
	key := fmt.Sprintf("TASK_LOCK_%s", t.ID)
	if !t.take(key, "busy") { // want "acquired with a non-unique token \\(the constant `\"busy\"`\\)"
		return
	}
	defer t.rdb.Eval(context.Background(), unlock, []string{key}, "busy")
	work()
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`
