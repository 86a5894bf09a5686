// Package app takes its locks through kv.Store, an interface whose one
// implementation forwards to go-redis: the calls are the commands.
package app

import (
	"context"
	"fmt"
	"time"

	"locklint.test/unconditionaldel/regressions/ifacewrap/kv"
)

type Summaries struct{ store kv.Store }

func (s *Summaries) Rebuild(ctx context.Context, id, token string) error {
	lockKey := fmt.Sprintf("summary:lock:%s", id)
	ok, err := s.store.PutIfAbsent(ctx, lockKey, time.Minute, token)
	if err != nil || !ok {
		return err
	}
	defer s.store.Remove(ctx, lockKey) // want "DEL of lock key `lockKey` without an owner check"
	return nil
}

// Through an interface whose Redis implementation sits next to an
// in-memory one.
func Unflag(ctx context.Context, f kv.Flags, id string) error {
	if ok, err := f.Raise(ctx, "lock:flag:"+id, time.Minute); err != nil || !ok {
		return err
	}
	return f.Lower(ctx, "lock:flag:"+id) // want "DEL of lock key `\"lock:flag:\" \\+ id` without an owner check"
}

// Near misses: a cache key through the same Store, and a lock key through
// an interface whose two Redis implementations differ.
func (s *Summaries) Evict(ctx context.Context, id string) error {
	return s.store.Remove(ctx, "summary:cache:"+id)
}

func Unmark(ctx context.Context, m kv.Marks, id string) error {
	return m.Clear(ctx, "lock:mark:"+id)
}
