// Package rawdo sends its lock commands through go-redis's generic Do, as
// redigo code ported to go-redis does, directly and behind a wrapper
// method whose body is the one Do call.
package rawdo

import (
	"context"
	"crypto/rand"

	"github.com/redis/go-redis/v9"
)

type Client struct{ rdb redis.UniversalClient }

// SetNEX forwards its key, value and seconds to SET ... EX ... NX.
func (c *Client) SetNEX(ctx context.Context, key, value string, ex int64) (int64, error) {
	return c.rdb.Do(ctx, "SET", key, value, "EX", ex, "NX").Int64()
}

func (c *Client) Get(ctx context.Context, key string) (string, error) {
	return c.rdb.Do(ctx, "GET", key).Text()
}

func (c *Client) Remove(ctx context.Context, key string) error {
	return c.rdb.Do(ctx, "DEL", key).Err()
}

type Lock struct {
	c   *Client
	key string
}

func (l *Lock) TryLock(ctx context.Context) bool {
	n, _ := l.c.SetNEX(ctx, "lock:"+l.key, "1", 30) // want "lock key `\"lock:\" \\+ l.key` acquired with a non-unique token \\(the constant `\"1\"`\\)"
	return n == 1
}

// Unlock checks the owner, with a value every holder stores.
func (l *Lock) Unlock(ctx context.Context) error {
	if v, _ := l.c.Get(ctx, "lock:"+l.key); v != "1" {
		return nil
	}
	return l.c.Remove(ctx, "lock:"+l.key)
}

func direct(ctx context.Context, rdb *redis.Client, job string) bool {
	ok, _ := rdb.Do(ctx, "SET", "lock:"+job, "worker", "PX", 30000, "NX").Bool() // want "lock key `\"lock:\" \\+ job` acquired with a non-unique token \\(the constant `\"worker\"`\\)"
	if ok {
		defer func() {
			// The owner check passes for every holder of "worker".
			if v, _ := rdb.Do(ctx, "GET", "lock:"+job).Text(); v == "worker" {
				rdb.Do(ctx, "DEL", "lock:"+job)
			}
		}()
	}
	return ok
}

// Near misses: a fresh token through Do, and through the wrapper.

func fresh(ctx context.Context, rdb *redis.Client, job string) bool {
	ok, _ := rdb.Do(ctx, "SET", "lock:"+job, rand.Text(), "PX", 30000, "NX").Bool()
	if ok {
		defer rdb.Do(ctx, "DEL", "lock:"+job)
	}
	return ok
}

func (l *Lock) TryLockFresh(ctx context.Context) bool {
	n, _ := l.c.SetNEX(ctx, "lock:"+l.key, rand.Text(), 30)
	return n == 1
}
