package behaviour_test

import (
	"context"
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

// eachWakeServer is eachServer with a redis-server user that may also use
// the wake-up channels.
func eachWakeServer(t *testing.T, fn func(t *testing.T, s target)) {
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
		setWaiterUser(t, s.admin)
		s.client = srv.Client(t, &redis.Options{Username: "waiter", Password: "waiter-pw"})
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
