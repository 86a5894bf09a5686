package behaviour_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/redis/go-redis/v9"
)

// wakeACL is what waiting callers of several processes need on top of
// aclCommands to be woken rather than to find out by asking: publishing
// and subscribing on the locks' wake-up channels, and the PING with which
// go-redis checks a subscription. The package documentation lists the
// same.
var wakeACL = []string{"+publish", "+spublish", "+subscribe", "+ssubscribe", "+unsubscribe", "+sunsubscribe", "+ping", "&*:wake"}

// wakeTarget is a server that several clients, standing for processes,
// reach as a user that may use the wake-up channels.
type wakeTarget struct {
	target
	// dial returns another client for the same server and user, closed
	// when the test ends.
	dial func(t *testing.T) *redis.Client
}

// eachWakeServer runs fn against miniredis and a redis-server whose user
// has the library's commands and the wake-up channels.
func eachWakeServer(t *testing.T, fn func(t *testing.T, s wakeTarget)) {
	t.Run("miniredis", func(t *testing.T) {
		m := redistest.Miniredis(t)
		s := wakeTarget{target: target{name: "miniredis", delex: true, sent: new(atomic.Int64), expiryError: 30 * time.Millisecond}}
		s.dial = func(t *testing.T) *redis.Client {
			c := redis.NewClient(&redis.Options{Addr: m.Addr()})
			t.Cleanup(func() { c.Close() })
			return c
		}
		s.client = s.dial(t)
		s.client.AddHook(countHook{s.sent})
		s.admin = s.dial(t)
		fn(t, s)
	})
	t.Run("redis-server", func(t *testing.T) {
		srv := redistest.Start(t)
		s := wakeTarget{target: target{name: "redis-server", sent: new(atomic.Int64)}}
		s.admin = srv.Client(t, nil)
		setWaiterUser(t, s.admin)
		s.dial = func(t *testing.T) *redis.Client {
			return srv.Client(t, &redis.Options{Username: "waiter", Password: "waiter-pw"})
		}
		s.client = s.dial(t)
		s.client.AddHook(countHook{s.sent})
		fn(t, s)
	})
}

// setWaiterUser creates the user "waiter" with the library's commands
// and the wake-up channels.
func setWaiterUser(t *testing.T, admin interface {
	Do(ctx context.Context, args ...any) *redis.Cmd
}, extra ...string) {
	t.Helper()
	args := []any{"ACL", "SETUSER", "waiter", "reset", "on", ">waiter-pw", "~*", "resetchannels", "-@all"}
	for _, c := range append(append(aclCommands, wakeACL...), extra...) {
		args = append(args, c)
	}
	if err := admin.Do(context.Background(), args...).Err(); err != nil {
		t.Fatal(err)
	}
}

// serverQueue returns the entries of key's queue on the server.
func serverQueue(t *testing.T, admin redis.Cmdable, key string) []string {
	t.Helper()
	raw, err := admin.Get(context.Background(), key+":queue").Result()
	if err == redis.Nil {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var q []string
	if err := json.Unmarshal([]byte(raw), &q); err != nil {
		t.Fatalf("queue %q: %v", raw, err)
	}
	return q
}

// eventually waits up to timeout for cond, failing the test with what.
func eventually(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %s: %s", timeout, what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
