// Package claimmirror pins a review queue whose tasks are claimed in the
// database (SELECT ... FOR UPDATE SKIP LOCKED); each claimed task is then
// mirrored in Redis as task:lock:<id>, a plain SET of the reviewer for
// the claim's timeout, and the record is deleted when the review is
// submitted, the task returned or the claim swept. Nothing reads the key,
// takes it with NX or checks it: it excludes nobody, it records who holds
// the row. Silent. The twins consult their key: a document lock checked
// with EXISTS before its plain SET, and an export whose plain SET, work
// and DEL sit in one function: their SETs are reported.
package claimmirror

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Task struct{ ID int }

type repo interface {
	ClaimTasks(reviewer, n int) ([]Task, error)
	Complete(task int) error
	Expired() ([]Task, error)
	Reset(task int) error
}

type Service struct {
	rdb  *redis.Client
	repo repo
}

// Near miss (silent): the claim records.
func (s *Service) ClaimTasks(ctx context.Context, reviewer, n int) ([]Task, error) {
	tasks, err := s.repo.ClaimTasks(reviewer, n)
	if err != nil || len(tasks) == 0 {
		return nil, err
	}
	claimed := fmt.Sprintf("task:claimed:%d", reviewer)
	pipe := s.rdb.Pipeline()
	for _, t := range tasks {
		pipe.SAdd(ctx, claimed, t.ID)
		lockKey := fmt.Sprintf("task:lock:%d", t.ID)
		pipe.Set(ctx, lockKey, reviewer, 30*time.Minute)
	}
	pipe.Expire(ctx, claimed, 30*time.Minute)
	_, err = pipe.Exec(ctx)
	return tasks, err
}

func (s *Service) SubmitReview(ctx context.Context, reviewer, task int) error {
	if err := s.repo.Complete(task); err != nil {
		return err
	}
	lockKey := fmt.Sprintf("task:lock:%d", task)
	pipe := s.rdb.Pipeline()
	pipe.SRem(ctx, fmt.Sprintf("task:claimed:%d", reviewer), task)
	pipe.Del(ctx, lockKey)
	_, err := pipe.Exec(ctx)
	return err
}

func (s *Service) ReleaseExpiredTasks(ctx context.Context) {
	tasks, _ := s.repo.Expired()
	for _, t := range tasks {
		if s.repo.Reset(t.ID) != nil {
			continue
		}
		lockKey := fmt.Sprintf("task:lock:%d", t.ID)
		s.rdb.Del(ctx, lockKey)
	}
}

// Must report: the document lock is checked before it is written.
func (s *Service) OpenDocument(ctx context.Context, doc, user string) (bool, error) {
	key := fmt.Sprintf("doc:lock:%s", doc)
	n, err := s.rdb.Exists(ctx, key).Result()
	if err != nil || n > 0 {
		return false, err
	}
	return true, s.rdb.Set(ctx, key, user, time.Minute).Err() // want "SET of lock key `key` without NX"
}

func (s *Service) CloseDocument(ctx context.Context, doc string) error {
	return s.rdb.Del(ctx, fmt.Sprintf("doc:lock:%s", doc)).Err()
}

func export() {}

// Must report: written, worked under and deleted by one function.
func (s *Service) Export(ctx context.Context, user string) {
	key := "export:lock"
	s.rdb.Set(ctx, key, user, time.Minute) // want "SET of lock key `key` without NX"
	export()
	s.rdb.Del(ctx, key)
}
