// Package callermarker pins a marker whose uniqueness comes from the
// caller: the scheduler names each dispatch exec-<task>-<UnixNano> and
// hands that id to the helper that writes task:lock:<exec id>, and
// whoever records the execution's end deletes the marker, with the id
// read back from its record. No other dispatch can make that key, so the
// DELs remove nothing another run holds. The twins take a key per task,
// which every dispatch of the task contends for.
package callermarker

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/go-redis/redis/v8"
	"github.com/google/uuid"
)

type Scheduler struct {
	rdb *redis.Client
}

// Run dispatches a task under a fresh execution id.
func (s *Scheduler) Run(ctx context.Context, task int64) error {
	execID := fmt.Sprintf("exec-%d-%d", task, time.Now().UnixNano())
	return s.dispatch(ctx, execID)
}

// Retry dispatches it again under another fresh id.
func (s *Scheduler) Retry(ctx context.Context, task int64) error {
	return s.dispatch(ctx, "retry-"+uuid.NewString())
}

// Near miss (silent): the marker's key has a part every caller makes
// fresh.
func (s *Scheduler) dispatch(ctx context.Context, execID string) error {
	lockKey := fmt.Sprintf("task:lock:%s", execID)
	ok, err := s.rdb.SetNX(ctx, lockKey, strconv.FormatInt(time.Now().UnixNano(), 10), time.Hour).Result()
	if err != nil || !ok {
		return fmt.Errorf("execution %s already running", execID)
	}
	if err := s.send(ctx, execID); err != nil {
		s.rdb.Del(ctx, lockKey)
		return err
	}
	return nil
}

func (s *Scheduler) send(ctx context.Context, execID string) error { return nil }

// Finish is called when an executor reports the end of an execution.
// Near miss (silent): the same marker family, deleted by its id.
func (s *Scheduler) Finish(ctx context.Context, execID string) error {
	return s.rdb.Del(ctx, fmt.Sprintf("task:lock:%s", execID)).Err()
}

// RunExclusive lets one dispatch of a task in at a time.
func (s *Scheduler) RunExclusive(ctx context.Context, task int64) error {
	return s.claim(ctx, strconv.FormatInt(task, 10))
}

// Must report: every dispatch of a task contends for task:run:<task>.
func (s *Scheduler) claim(ctx context.Context, task string) error {
	key := "task:run:lock:" + task
	ok, err := s.rdb.SetNX(ctx, key, uuid.NewString(), time.Minute).Result()
	if err != nil || !ok {
		return fmt.Errorf("task %s already running", task)
	}
	defer s.rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	return s.send(ctx, task)
}

// RunShared dispatches under a fresh id, and Resume under an id from
// its caller, so dispatchShared's key is not fresh at every call.
func (s *Scheduler) RunShared(ctx context.Context, task int64) error {
	return s.dispatchShared(ctx, fmt.Sprintf("exec-%d-%d", task, time.Now().UnixNano()))
}

func (s *Scheduler) Resume(ctx context.Context, execID string) error {
	return s.dispatchShared(ctx, execID)
}

// Must report: one of the calls passes a name others can make too.
func (s *Scheduler) dispatchShared(ctx context.Context, execID string) error {
	lockKey := fmt.Sprintf("job:lock:%s", execID)
	ok, err := s.rdb.SetNX(ctx, lockKey, uuid.NewString(), time.Hour).Result()
	if err != nil || !ok {
		return fmt.Errorf("execution %s already running", execID)
	}
	defer s.rdb.Del(ctx, lockKey) // want "DEL of lock key `lockKey` without an owner check"
	return s.send(ctx, execID)
}
