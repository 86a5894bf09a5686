// Package singletonstandby pins a scheduler that runs on one replica
// only: each replica tries go-zero's kv.Store for the singleton key and,
// when another holds it, sleeps and tries again for as long as it runs.
// The key's name says what it is, the lease of the one instance that
// runs, and its standby waits by design. A loop that never waits spins,
// and a job's key retried with a sleep is the retry the analyzer is
// about.
package singletonstandby

import (
	"context"
	"time"

	"github.com/zeromicro/go-zero/core/stores/kv"
)

type Scheduler struct {
	store        kv.Store
	singletonKey string
}

func (s *Scheduler) Run(ctx context.Context, start func()) {
	for {
		ok, err := s.store.SetnxExCtx(ctx, s.singletonKey, time.Now().String(), 15)
		if err == nil && ok {
			break
		}
		time.Sleep(10 * time.Second)
	}
	start()
}

func (s *Scheduler) RunBusy(ctx context.Context, start func()) {
	for { // want `lock acquisition retried with no bound`
		if ok, _ := s.store.SetnxExCtx(ctx, s.singletonKey, time.Now().String(), 15); ok {
			break
		}
	}
	start()
}

func (s *Scheduler) RunJob(ctx context.Context, job string, run func()) {
	for { // want `lock acquisition retried with no bound, at a constant interval`
		if ok, _ := s.store.SetnxExCtx(ctx, "job:lock:"+job, time.Now().String(), 60); ok {
			break
		}
		time.Sleep(time.Second)
	}
	run()
}
