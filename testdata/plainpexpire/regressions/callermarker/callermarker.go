// Package callermarker pins a running execution's marker whose key has
// the execution id its callers make fresh (exec-<task>-<UnixNano>): the
// scheduler extends the marker with a plain EXPIRE, or writes it again
// with a plain SET, when an executor reports the execution alive. No
// other execution can make that key. The twin renews a key per task,
// which every run of the task contends for.
package callermarker

import (
	"context"
	"fmt"
	"time"

	"github.com/go-redis/redis/v8"
	"github.com/google/uuid"
)

type Scheduler struct {
	rdb *redis.Client
}

// Run dispatches a task under a fresh execution id.
func (s *Scheduler) Run(ctx context.Context, task int64) error {
	return s.dispatch(ctx, fmt.Sprintf("exec-%d-%d", task, time.Now().UnixNano()))
}

func (s *Scheduler) dispatch(ctx context.Context, execID string) error {
	ok, err := s.rdb.SetNX(ctx, "task:lock:"+execID, "running", time.Minute).Result()
	if err != nil || !ok {
		return fmt.Errorf("execution %s already running", execID)
	}
	return nil
}

// Alive is called when an executor reports an execution alive.
// Near miss (silent): the run's own marker, extended and rewritten.
func (s *Scheduler) Alive(ctx context.Context, execID string, recovered bool) error {
	key := "task:lock:" + execID
	if recovered {
		return s.rdb.Set(ctx, key, "recovered", time.Minute).Err()
	}
	return s.rdb.Expire(ctx, key, time.Minute).Err()
}

// RunExclusive lets one run of a task in at a time.
func (s *Scheduler) RunExclusive(ctx context.Context, task string) (bool, error) {
	return s.rdb.SetNX(ctx, "task:run:lock:"+task, uuid.NewString(), time.Minute).Result()
}

// Must report: a key every run of the task contends for, renewed with no
// owner check.
func (s *Scheduler) KeepRunning(ctx context.Context, task string) error {
	return s.rdb.Expire(ctx, "task:run:lock:"+task, time.Minute).Err() // want "EXPIRE of lock key"
}
