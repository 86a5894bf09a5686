// Package app takes its locks through rediswrap: the calls are commands
// with the keys, values and TTLs passed here.
package app

import (
	"context"
	"time"

	"locklint.test/unconditionaldel/regressions/wrappers/rediswrap"
)

func viaInterface(ctx context.Context, c rediswrap.Client, order string, token string) {
	if !c.SetNX(ctx, "lock:order:"+order, token, 10*time.Second).Val() {
		return
	}
	defer c.Del(ctx, "lock:order:"+order) // want "DEL of lock key `\"lock:order:\" \\+ order` without an owner check"
}

func viaStruct(ctx context.Context, s *rediswrap.Store, job, token string) error {
	key := "job:" + job + ":lock"
	ok, err := s.SetIfAbsent(ctx, key, token, time.Minute)
	if err != nil || !ok {
		return err
	}
	return s.Remove(ctx, key) // want "DEL of lock key `key` without an owner check"
}

func viaFunc(ctx context.Context, id string) error {
	return rediswrap.Delete(ctx, "mutex:"+id) // want "DEL of lock key `\"mutex:\" \\+ id` without an owner check"
}

func viaWrapperOfWrapper(ctx context.Context, id string) error {
	return rediswrap.Forget(ctx, "lock:"+id) // want "DEL of lock key `\"lock:\" \\+ id` without an owner check"
}

func viaRedigo(p *rediswrap.Pool, id, token string) error {
	if ok, _ := p.SetNXEx("lock:pay:"+id, token, 30); !ok {
		return nil
	}
	return p.Del("lock:pay:" + id) // want "DEL of lock key `\"lock:pay:\" \\+ id` without an owner check"
}

// Near misses: the same wrappers on cache keys.
func evict(ctx context.Context, c rediswrap.Client, s *rediswrap.Store, p *rediswrap.Pool, id string) {
	c.Del(ctx, "cache:"+id)
	s.Remove(ctx, "cache:"+id, "cache:meta:"+id)
	rediswrap.Delete(ctx, "session:"+id)
	p.Del("cache:" + id)
}
