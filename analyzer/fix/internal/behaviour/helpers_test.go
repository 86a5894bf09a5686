package behaviour_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/redis/go-redis/v9"
)

// target is one server the behaviour tests run against.
type target struct {
	name string
	// delex says whether the server has DELEX, so which release path runs.
	delex  bool
	client *redis.Client
	// admin bypasses the restricted ACL user, to inspect and disturb state.
	admin *redis.Client
	sent  *atomic.Int64
	// expiryError is how much earlier than Redis this server may expire a
	// key: miniredis follows the real clock in steps (see redistest), so a
	// key set between two steps loses up to one step of its TTL.
	expiryError time.Duration
}

// aclCommands is what the library needs on a server without DELEX; the
// package documentation lists the same commands.
var aclCommands = []string{"+set", "+get", "+mget", "+del", "+pexpire", "+pttl", "+incr", "+time", "+eval", "+evalsha"}

// eachServer runs fn against miniredis (DELEX) and against a redis-server
// started for the test (Lua fallback), there as a user limited to the
// commands the library needs.
func eachServer(t *testing.T, fn func(t *testing.T, s target)) {
	t.Run("miniredis", func(t *testing.T) {
		m := redistest.Miniredis(t)
		s := target{name: "miniredis", delex: true, sent: new(atomic.Int64), expiryError: 30 * time.Millisecond}
		s.client = redis.NewClient(&redis.Options{Addr: m.Addr()})
		s.client.AddHook(countHook{s.sent})
		s.admin = redis.NewClient(&redis.Options{Addr: m.Addr()})
		t.Cleanup(func() { s.client.Close(); s.admin.Close() })
		fn(t, s)
	})
	t.Run("redis-server", func(t *testing.T) {
		srv := redistest.Start(t)
		s := target{name: "redis-server", sent: new(atomic.Int64)}
		s.admin = srv.Client(t, nil)
		args := []any{"ACL", "SETUSER", "locker", "reset", "on", ">locker-pw", "~*", "resetchannels", "-@all"}
		for _, c := range aclCommands {
			args = append(args, c)
		}
		if err := s.admin.Do(context.Background(), args...).Err(); err != nil {
			t.Fatal(err)
		}
		s.client = srv.Client(t, &redis.Options{Username: "locker", Password: "locker-pw"})
		s.client.AddHook(countHook{s.sent})
		fn(t, s)
	})
}

// countHook counts commands that reach the connection, to prove that bad
// input sends nothing.
type countHook struct{ n *atomic.Int64 }

func (h countHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h countHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmd)
	}
}

func (h countHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.n.Add(int64(len(cmds)))
		return next(ctx, cmds)
	}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
