// Package luaacquire pins retry loops around an acquire written as a Lua
// script, through a method that runs it.
package luaacquire

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var acquireScript = redis.NewScript(`return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`)

type Mutex struct {
	rdb   *redis.Client
	key   string
	token string
}

func (m *Mutex) TryAcquire(ctx context.Context) (bool, error) { // want TryAcquire:"acquires lock via a Lua script"
	v, err := acquireScript.Run(ctx, m.rdb, []string{m.key}, m.token, 30000).Result()
	if err == redis.Nil {
		return false, nil
	}
	return v != nil, err
}

func (m *Mutex) Wait(ctx context.Context) {
	for { // want `lock acquisition retried with no bound, at a constant interval`
		if ok, _ := m.TryAcquire(ctx); ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Near miss: the same loop under the context.
func (m *Mutex) WaitCtx(ctx context.Context) error { // want WaitCtx:"acquires lock via \\(\\*locklint.test/unboundedretry/regressions/luaacquire.Mutex\\).TryAcquire"
	for {
		if ok, _ := m.TryAcquire(ctx); ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
