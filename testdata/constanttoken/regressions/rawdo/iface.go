package rawdo

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/redis/go-redis/v9"
)

// LockClient is the service's own client interface; *redisClient, its one
// implementation in the package, forwards SetNXEX to Do.
type LockClient interface {
	SetNXEX(ctx context.Context, key, value string, seconds int64) (int64, error)
}

type redisClient struct{ rdb *redis.Client }

func (c *redisClient) SetNXEX(ctx context.Context, key, value string, seconds int64) (int64, error) {
	if key == "" {
		return -1, fmt.Errorf("empty key")
	}
	return c.rdb.Do(ctx, "SET", key, value, "EX", seconds, "NX").Int64()
}

func pid() string { return fmt.Sprint(os.Getpid()) }

func goroutine() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	return strings.Fields(string(buf))[1]
}

func owner() string { return fmt.Sprintf("%s_%s", pid(), goroutine()) }

type Mutex struct {
	name   string
	token  string
	client LockClient
}

func NewMutex(name string, client LockClient) *Mutex {
	return &Mutex{name: name, token: owner(), client: client}
}

func (m *Mutex) key() string { return "mutex:" + m.name }

// The token is made once per mutex from the pid and the goroutine id,
// through three helpers and a field.
func (m *Mutex) TryLock(ctx context.Context) bool {
	n, _ := m.client.SetNXEX(ctx, m.key(), m.token, 30) // want "lock key `m.key\\(\\)` acquired with a non-unique token \\(field `token`, the goroutine id \\(`runtime.Stack`\\), returned by `owner`\\)"
	return n == 1
}

// An interface that two types of the package implement, one in memory
// (for tests) and one over Redis: the Redis one takes the calls that
// matter.
type Setter interface {
	SetIfAbsent(ctx context.Context, key, value string, seconds int64) (int64, error)
}

type memory struct{}

func (memory) SetIfAbsent(context.Context, string, string, int64) (int64, error) { return 1, nil }

type remote struct{ rdb *redis.Client }

func (c *remote) SetIfAbsent(ctx context.Context, key, value string, seconds int64) (int64, error) {
	return c.rdb.Do(ctx, "SET", key, value, "EX", seconds, "NX").Int64()
}

func either(ctx context.Context, s Setter, job string) bool {
	n, _ := s.SetIfAbsent(ctx, "lock:"+job, "1", 30) // want "lock key `\"lock:\" \\+ job` acquired with a non-unique token \\(the constant `\"1\"`\\)"
	return n == 1
}
