// Package cache writes a value to every client under a lock of package
// lock, with the writes and the lock under one 5 s timeout. The deferred
// release runs under that timeout: when the writes use it up, the
// release script is never sent and the lock stays for its TTL. The near
// miss releases under a context of its own.
package cache

import (
	"context"
	"log"
	"time"

	"github.com/redis/go-redis/v9"

	"locklint.test/releasectx/regressions/wrapperchain/lock"
)

type Cache struct {
	clients []*redis.Client
	locker  lock.Locker
}

func (c *Cache) Set(ctx context.Context, key, value string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	l, err := c.locker.Acquire(ctx, "lock:"+key, 5*time.Second)
	if err != nil {
		return err
	}
	defer func() {
		if err := l.Release(ctx); err != nil { // want "deferred `l.Release`: `ctx` expires with the work's timeout \\(line 24\\)"
			log.Printf("release %s: %v", key, err)
		}
	}()
	for _, rdb := range c.clients {
		if err := rdb.Set(ctx, key, value, time.Hour).Err(); err != nil {
			return err
		}
	}
	return nil
}

func (c *Cache) Refresh(ctx context.Context, key, value string) error {
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	l, err := c.locker.Acquire(wctx, "lock:"+key, 5*time.Second)
	if err != nil {
		return err
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		if err := l.Release(rctx); err != nil {
			log.Printf("release %s: %v", key, err)
		}
	}()
	for _, rdb := range c.clients {
		if err := rdb.Set(wctx, key, value, time.Hour).Err(); err != nil {
			return err
		}
	}
	return nil
}
