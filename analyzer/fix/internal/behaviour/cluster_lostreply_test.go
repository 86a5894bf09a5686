package behaviour_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/redis/go-redis/v9"
)

// TestClusterLostRepliesAreNotContention loses replies on a 3-master
// Cluster, whose client re-sends a command after a network error as a
// single-node client does (up to MaxRedirects times, 3 by default). The
// client is built with default options; only its slot map points at the
// proxies. The re-sent acquire finds the caller's own token and succeeds
// with the first copy's fence and one INCR; the re-sent refresh extends
// again; the re-sent release finds the key gone and reports at most
// ErrNotHeld saying a copy may have deleted it. Nothing stays behind.
func TestClusterLostRepliesAreNotContention(t *testing.T) {
	addrs := redistest.StartCluster(t, 3)
	ctx := ctxT(t)
	admin := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	defer admin.Close()
	slots := slotMap(t, ctx, admin)
	proxies, viaProxies := proxySlots(t, addrs, slots)
	client := redis.NewClusterClient(&redis.ClusterOptions{ClusterSlots: viaProxies})
	defer client.Close()

	for _, v := range []struct {
		name   string
		fenced bool
		opts   []fix.Option
	}{
		{"single", false, nil},
		{"single+fencing", true, []fix.Option{fix.WithFencing()}},
		{"deadline+fencing", true, []fix.Option{fix.WithFencing(), fix.WithMaxWait(2 * time.Second)}},
	} {
		t.Run(v.name, func(t *testing.T) {
			key := "lock:{lost/" + v.name + "}"
			fenceKey := key + ":fence"
			proxy := proxies[masterOf(t, ctx, admin, slots, key)]
			// Warm up on the same slot: scripts loaded and features
			// learnt, so the lost reply is that of an acquire that ran.
			warm, err := fix.Obtain(ctx, client, key+":warm", time.Second, v.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if err := warm.Release(ctx); err != nil {
				t.Fatal(err)
			}

			f := proxy.Inject(&redistest.Fault{Match: isAcquire, Times: 1})
			l, err := fix.Obtain(context.Background(), client, key, 10*time.Second, v.opts...)
			if f.Hits() != 1 {
				t.Fatalf("the acquire fault hit %d commands, want 1", f.Hits())
			}
			if err != nil {
				t.Fatalf("Obtain after a lost reply: %v (key holds %q, fence counter %q)", err, admin.Get(ctx, key).Val(), admin.Get(ctx, fenceKey).Val())
			}
			if holder := admin.Get(ctx, key).Val(); holder != l.Token() {
				t.Errorf("key holds %q, want the lock's token", holder)
			}
			// A new counter starts at the fence it issues: a second fence
			// would have moved it past the lock's.
			if counter := admin.Get(ctx, fenceKey).Val(); v.fenced && (l.Fence() <= 1 || counter != fmt.Sprint(l.Fence())) {
				t.Errorf("fence %d, counter %q: want one fence, the counter's first", l.Fence(), counter)
			}

			isRefresh := func(args []string) bool {
				return redistest.Command("SET", "IFEQ")(args) || redistest.Command("EVALSHA")(args)
			}
			f = proxy.Inject(&redistest.Fault{Match: isRefresh, Times: 1})
			if err := l.Refresh(ctx, 30*time.Second); err != nil {
				t.Fatalf("refresh after a lost reply: %v", err)
			}
			if f.Hits() != 1 {
				t.Fatalf("the refresh fault hit %d commands", f.Hits())
			}
			if pttl := admin.PTTL(ctx, key).Val(); pttl < 20*time.Second {
				t.Errorf("PTTL after refresh = %s, want about 30s", pttl)
			}

			isRelease := func(args []string) bool {
				return redistest.Command("DELEX")(args) || redistest.Command("EVALSHA")(args)
			}
			f = proxy.Inject(&redistest.Fault{Match: isRelease, Times: 1})
			err = l.Release(ctx)
			if f.Hits() != 1 {
				t.Fatalf("the release fault hit %d commands", f.Hits())
			}
			if err != nil && (!errors.Is(err, fix.ErrNotHeld) || !strings.Contains(err.Error(), "re-sent")) {
				t.Errorf("release after a lost reply: %v; want nil or ErrNotHeld saying a re-sent copy may have deleted it", err)
			}
			if n := admin.Exists(ctx, key).Val(); n != 0 {
				t.Errorf("key survives release")
			}
		})
	}
}
