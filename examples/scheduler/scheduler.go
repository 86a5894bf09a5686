// Package scheduler runs periodic jobs on a fleet of workers; a Redis lock
// makes sure one worker runs each job at a time.
package scheduler

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locklint/locklint/analyzer/fix"
)

// ErrBusy means another worker runs the job.
var ErrBusy = errors.New("scheduler: job is running elsewhere")

// Scheduler runs jobs under a per-job lock.
type Scheduler struct {
	rdb     *redis.Client
	lockTTL time.Duration
}

// New returns a scheduler over rdb.
func New(rdb *redis.Client) *Scheduler {
	return &Scheduler{rdb: rdb, lockTTL: time.Minute}
}

func jobLockKey(job string) string { return fmt.Sprintf("scheduler:lock:%s", job) }

// RunNaive is the version found in many services: SETNX, then EXPIRE, then
// an unconditional DEL.
func (s *Scheduler) RunNaive(ctx context.Context, job string, fn func(context.Context) error) error {
	key := jobLockKey(job)
	token := rand.Text()
	ok, err := s.rdb.SetNX(ctx, key, token, 0).Result() // BUG(setnxexpire): a crash before the EXPIRE leaves a permanent lock
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	s.rdb.Expire(ctx, key, s.lockTTL)
	defer s.rdb.Del(ctx, key) // BUG(unconditionaldel): deletes the next worker's lock when this run outlives its lease
	return fn(ctx)
}

// WaitAndRun waits for the job's lock forever, polling at a fixed rate.
func (s *Scheduler) WaitAndRun(ctx context.Context, job string, fn func(context.Context) error) error {
	key := jobLockKey(job)
	token := rand.Text()
	for { // BUG(unboundedretry): no deadline, no attempt limit, synchronized polling
		if s.rdb.SetNX(ctx, key, token, s.lockTTL).Val() {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	defer fix.Release(ctx, s.rdb, key, token)
	return fn(ctx)
}

// Run is the correct version: one atomic acquire with a fresh token, a
// watchdog that renews the lease while fn runs, an owner-checked release,
// and a bounded wait.
func (s *Scheduler) Run(ctx context.Context, job string, fn func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	err := fix.Do(ctx, s.rdb, jobLockKey(job), s.lockTTL, fn, fix.WithMaxWait(5*time.Second))
	if errors.Is(err, fix.ErrNotObtained) {
		return ErrBusy
	}
	return err
}

// RunOnce skips the job when another worker runs it, or means to.
func (s *Scheduler) RunOnce(ctx context.Context, job string, fn func(context.Context) error) error {
	key := jobLockKey(job)
	token := rand.Text()
	if err := s.rdb.SetNX(ctx, key, token, s.lockTTL).Err(); err != nil { // BUG(uncheckedacquire): a held lock gives false and no error, so fn runs beside its holder
		return err
	}
	defer fix.Release(ctx, s.rdb, key, token)
	return fn(ctx)
}
