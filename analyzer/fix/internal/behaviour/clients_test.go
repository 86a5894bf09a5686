package behaviour_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/locklint/locklint/analyzer/fix/lock"
	"github.com/redis/go-redis/v9"
)

// clientKind makes lock.Clients of one Redis client library, built the way
// services build them: default options, only the address. Each library's
// file registers its kind; TestClients runs the same cases on each.
type clientKind struct {
	name string
	// standalone returns a client of the server at addr, closed when the
	// test ends.
	standalone func(t *testing.T, addr string) lock.Client
	// cluster returns a Cluster client seeded with addrs, nil when the
	// library has no cluster mode.
	cluster func(t *testing.T, addrs []string) lock.Client
	// oneConn says the client is a single connection that it does not
	// replace when it breaks (a redigo Conn): the lost reply case, which
	// breaks the connection to lose a reply, leaves such a client with
	// nothing to retry on, so it does not apply.
	oneConn bool
}

var clientKinds []clientKind

func register(k clientKind) { clientKinds = append(clientKinds, k) }

// TestClients runs the library's core behaviour through every client kind,
// on miniredis (which has DELEX) and a real redis-server (the Lua path),
// and on a 3-master Cluster for kinds with a cluster mode: mutual exclusion
// and fences among waiters of two processes, owner-checked release and
// refresh, a lost acquire and release reply, and a stalled network.
func TestClients(t *testing.T) {
	if len(clientKinds) == 0 {
		t.Fatal("no client kind registered")
	}
	cases := []struct {
		name string
		fn   func(t *testing.T, k clientKind, s proxied)
	}{
		{"exclusion", clientExclusion},
		{"owner", clientOwnerChecks},
		{"lostreply", func(t *testing.T, k clientKind, s proxied) {
			if k.oneConn {
				t.Skip("a single connection that breaks is not replaced: nothing to retry on")
			}
			clientLostReplies(t, k, s)
		}},
		{"stall", clientStall},
		{"pipeline", func(t *testing.T, k clientKind, s proxied) { clientPipeline(t, k.standalone(t, s.direct())) }},
	}
	eachProxiedServer(t, func(t *testing.T, s proxied) {
		for _, k := range clientKinds {
			t.Run(k.name, func(t *testing.T) {
				for _, c := range cases {
					t.Run(c.name, func(t *testing.T) { c.fn(t, k, s) })
				}
			})
		}
	})
	t.Run("replicas", func(t *testing.T) {
		primary, reps := replicated(t, 1)
		for _, k := range clientKinds {
			t.Run(k.name, func(t *testing.T) {
				clientReplicas(t, k.standalone(t, primary.Addr), primary.Client(t, nil), reps[0].Client(t, nil))
			})
		}
	})
	t.Run("cluster", func(t *testing.T) {
		addrs := redistest.StartCluster(t, 3)
		for _, k := range clientKinds {
			if k.cluster == nil {
				continue
			}
			t.Run(k.name, func(t *testing.T) {
				clientCluster(t, k, addrs)
				clientPipeline(t, k.cluster(t, addrs))
			})
		}
	})
}

// direct is the server itself, past the proxy.
func (s proxied) direct() string { return s.admin.Options().Addr }

// uniqueKey is a fresh lock key (and fence counter) for one case on a
// shared server.
func uniqueKey(t *testing.T) string { return "lock:{" + t.Name() + "}" }

// clientExclusion has waiters of two processes (two clients) take one key
// in turn: never two at once, fences strictly increasing, and every
// waiter served within the wait.
func clientExclusion(t *testing.T, k clientKind, s proxied) {
	clients := []lock.Client{k.standalone(t, s.direct()), k.standalone(t, s.direct())}
	key := uniqueKey(t)
	const workers, rounds = 6, 4
	var (
		inside   atomic.Int32
		mu       sync.Mutex
		last     int64
		obtained int
		wg       sync.WaitGroup
	)
	ctx := ctxT(t)
	for w := range workers {
		wg.Add(1)
		go func(c lock.Client) {
			defer wg.Done()
			for range rounds {
				l, err := lock.Obtain(ctx, c, key, 5*time.Second, lock.WithFencing(), lock.WithMaxWait(10*time.Second))
				if err != nil {
					t.Errorf("obtain: %v", err)
					return
				}
				if n := inside.Add(1); n != 1 {
					t.Errorf("%d holders at once", n)
				}
				mu.Lock()
				if l.Fence() <= last {
					t.Errorf("fence %d after %d", l.Fence(), last)
				}
				last = l.Fence()
				obtained++
				mu.Unlock()
				time.Sleep(time.Millisecond)
				inside.Add(-1)
				if err := l.Release(ctx); err != nil {
					t.Errorf("release: %v", err)
				}
			}
		}(clients[w%2])
	}
	wg.Wait()
	if obtained != workers*rounds {
		t.Errorf("obtained %d times, want %d", obtained, workers*rounds)
	}
	if n := s.admin.Exists(ctx, key, key+":queue").Val(); n != 0 {
		t.Errorf("%d of the lock and queue keys left behind", n)
	}
}

// clientOwnerChecks checks that release and refresh act for the owner only,
// never recreate a key, and take the server's path (DELEX or the script).
func clientOwnerChecks(t *testing.T, k clientKind, s proxied) {
	c := k.standalone(t, s.direct())
	ctx := ctxT(t)
	key := uniqueKey(t)
	var path lock.ReleasePath
	obs := &lock.Observer{Released: func(_ context.Context, _ string, p lock.ReleasePath, _ bool) { path = p }}
	l, err := lock.Obtain(ctx, c, key, 2*time.Second, lock.WithObserver(obs))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.admin.Get(ctx, key).Val(); got != l.Token() {
		t.Fatalf("key holds %q, want the token", got)
	}
	if _, err := lock.Obtain(ctx, c, key, time.Second); !errors.Is(err, lock.ErrNotObtained) {
		t.Errorf("second Obtain: %v, want ErrNotObtained", err)
	}
	if err := lock.Release(ctx, c, key, "not-the-token"); !errors.Is(err, lock.ErrNotHeld) {
		t.Errorf("release by another token: %v, want ErrNotHeld", err)
	}
	if err := lock.Refresh(ctx, c, key, "not-the-token", time.Minute); !errors.Is(err, lock.ErrNotHeld) {
		t.Errorf("refresh by another token: %v, want ErrNotHeld", err)
	}
	if pttl := s.admin.PTTL(ctx, key).Val(); pttl > 2*time.Second || pttl <= 0 {
		t.Errorf("lease %s after another token's refresh, want at most 2s", pttl)
	}
	if err := l.Refresh(ctx, 30*time.Second); err != nil {
		t.Fatalf("refresh: %v", err)
	}
	if pttl := s.admin.PTTL(ctx, key).Val(); pttl < 20*time.Second {
		t.Errorf("lease %s after refresh, want about 30s", pttl)
	}
	if err := l.Release(ctx); err != nil {
		t.Fatalf("release: %v", err)
	}
	want := lock.ReleaseLua
	if s.name == "miniredis" {
		want = lock.ReleaseDELEX
	}
	if path != want {
		t.Errorf("release path %q, want %q", path, want)
	}
	if n := s.admin.Exists(ctx, key).Val(); n != 0 {
		t.Errorf("key survives release")
	}
	if err := lock.Refresh(ctx, c, key, l.Token(), time.Minute); !errors.Is(err, lock.ErrNotHeld) {
		t.Errorf("refresh after release: %v, want ErrNotHeld", err)
	}
	if n := s.admin.Exists(ctx, key).Val(); n != 0 {
		t.Errorf("refresh recreated the key")
	}
}

// clientLostReplies swallows the reply of an acquire and of a release that
// ran (the connection is reset once the reply arrived). A client that
// re-sends, or Obtain's own retry within its wait, finds the caller's
// token: the lock is obtained with the first copy's fence and one INCR.
// A lost release reply ends with the key gone either way.
func clientLostReplies(t *testing.T, k clientKind, s proxied) {
	c := k.standalone(t, s.proxy.Addr)
	ctx := ctxT(t)
	// Warm up: the scripts get loaded and the server's features learnt,
	// so the lost reply is that of an acquire that ran.
	warm, err := lock.Obtain(ctx, c, uniqueKey(t)+":warm", time.Second, lock.WithFencing())
	if err != nil {
		t.Fatal(err)
	}
	if err := warm.Release(ctx); err != nil {
		t.Fatal(err)
	}
	key := uniqueKey(t)
	f := s.proxy.Inject(&redistest.Fault{Match: isAcquire, Times: 1})
	l, err := lock.Obtain(ctx, c, key, 10*time.Second, lock.WithFencing(), lock.WithMaxWait(3*time.Second))
	if f.Hits() != 1 {
		t.Fatalf("the fault hit %d commands, want 1", f.Hits())
	}
	if err != nil {
		t.Fatalf("Obtain after a lost reply: %v (key holds %q)", err, s.admin.Get(ctx, key).Val())
	}
	if got := s.admin.Get(ctx, key).Val(); got != l.Token() {
		t.Errorf("key holds %q, want the lock's token", got)
	}
	// A new counter starts at the fence it issues: a second fence would
	// have moved it past the lock's.
	if counter := s.admin.Get(ctx, key+":fence").Val(); l.Fence() <= 1 || counter != fmt.Sprint(l.Fence()) {
		t.Errorf("fence %d, counter %q: want one fence, the counter's first", l.Fence(), counter)
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
	// A lock taken with one attempt releases with the owner-checked
	// delete (a queued one hands on with another script).
	key += ":single"
	if l, err = lock.Obtain(ctx, c, key, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	f = s.proxy.Inject(&redistest.Fault{Match: isRelease, Times: 1})
	err = l.Release(ctx)
	if f.Hits() != 1 {
		t.Fatalf("the release fault hit %d commands, want 1", f.Hits())
	}
	if err != nil && !errors.Is(err, lock.ErrNotHeld) {
		// A client that does not re-send reports the lost reply; the
		// delete ran all the same.
		t.Logf("release with a lost reply: %v", err)
	}
	if n := s.admin.Exists(ctx, key).Val(); n != 0 {
		t.Errorf("key survives a release whose reply was lost")
	}
}

// clientStall stalls the network: an Obtain with a wait returns within it
// (plus scheduling slack) with ErrNotObtained, a Release within its
// timeout, and once the network is back no token of the failed Obtain is
// left.
func clientStall(t *testing.T, k clientKind, s proxied) {
	c := k.standalone(t, s.proxy.Addr)
	ctx := ctxT(t)
	held, err := lock.Obtain(ctx, c, uniqueKey(t)+":held", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	key := uniqueKey(t)
	s.proxy.Stall()
	start := time.Now()
	// A client that ends commands at the deadline can leave the token
	// for its TTL (below): a short one keeps the case short.
	ttl := 10 * time.Second
	if c.Info().Deadlines {
		ttl = 2 * time.Second
	}
	_, err = lock.Obtain(ctx, c, key, ttl, lock.WithMaxWait(300*time.Millisecond), lock.WithReleaseTimeout(200*time.Millisecond))
	took := time.Since(start)
	if !errors.Is(err, lock.ErrNotObtained) {
		t.Errorf("Obtain on a stalled network: %v, want ErrNotObtained", err)
	}
	if took > time.Second {
		t.Errorf("Obtain on a stalled network took %s, want about 300ms", took)
	}
	start = time.Now()
	err = held.Release(ctx)
	took = time.Since(start)
	if err == nil {
		t.Errorf("Release on a stalled network succeeded")
	}
	if took > lock.DefaultReleaseTimeout+time.Second {
		t.Errorf("Release on a stalled network took %s, want at most %s", took, lock.DefaultReleaseTimeout)
	}
	s.proxy.Resume()
	// The library waits for the command of a client that does not end it
	// at the deadline, and removes the token if it landed. A client that
	// does end it (Info.Deadlines) leaves its bytes in transit: the proxy
	// delivers them on Resume, possibly after the removal Obtain sent on
	// another connection, and the token then lasts its TTL, as package
	// lock documents.
	wait := 10 * time.Second
	if c.Info().Deadlines {
		wait = ttl + 2*time.Second
	}
	deadline := time.Now().Add(wait)
	for s.admin.Exists(ctx, key).Val() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the failed Obtain's token is still in the key: %q", s.admin.Get(ctx, key).Val())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The lock whose release failed is still held and can be released.
	if err := held.Release(ctx); err != nil && !errors.Is(err, lock.ErrNotHeld) {
		t.Errorf("second release: %v", err)
	}
}

// clientCluster takes fenced locks on keys of several slots through a
// Cluster client, with waiters woken by shard channels.
func clientCluster(t *testing.T, k clientKind, addrs []string) {
	admin := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	t.Cleanup(func() { admin.Close() })
	clients := []lock.Client{k.cluster(t, addrs), k.cluster(t, addrs)}
	ctx := ctxT(t)
	var wg sync.WaitGroup
	// Each key's first fence, which starts its counter; 12 acquisitions
	// follow it one apart.
	var first [3]int64
	for i, tag := range []string{"a", "b", "c"} {
		key := fmt.Sprintf("lock:{%s/%s}", t.Name(), tag)
		var inside atomic.Int32
		var mu sync.Mutex
		var last int64
		for w := range 4 {
			wg.Add(1)
			go func(c lock.Client) {
				defer wg.Done()
				for range 3 {
					l, err := lock.Obtain(ctx, c, key, 5*time.Second, lock.WithFencing(), lock.WithMaxWait(10*time.Second))
					if err != nil {
						t.Errorf("obtain %s: %v", key, err)
						return
					}
					if n := inside.Add(1); n != 1 {
						t.Errorf("%s: %d holders at once", key, n)
					}
					mu.Lock()
					if l.Fence() <= last {
						t.Errorf("%s: fence %d after %d", key, l.Fence(), last)
					}
					if first[i] == 0 {
						first[i] = l.Fence()
					}
					last = l.Fence()
					mu.Unlock()
					time.Sleep(time.Millisecond)
					inside.Add(-1)
					if err := lock.Refresh(ctx, c, key, "not-the-token", time.Minute); !errors.Is(err, lock.ErrNotHeld) {
						t.Errorf("refresh by another token: %v", err)
					}
					if err := l.Release(ctx); err != nil {
						t.Errorf("release %s: %v", key, err)
					}
				}
			}(clients[(i+w)%2])
		}
	}
	wg.Wait()
	for i, tag := range []string{"a", "b", "c"} {
		key := fmt.Sprintf("lock:{%s/%s}", t.Name(), tag)
		if n := admin.Exists(ctx, key).Val(); n != 0 {
			t.Errorf("%s left behind", key)
		}
		if got, want := admin.Get(ctx, key+":fence").Val(), fmt.Sprint(first[i]+11); got != want {
			t.Errorf("%s: fence counter %q, want %s (12 fences from %d)", key, got, want, first[i])
		}
	}
}

// clientPipeline checks the replies of a pipeline: in order, a null reply
// as nil, an error reply as a *ServerError in its place, and a keyless
// WAIT on the connection of the writes before it.
func clientPipeline(t *testing.T, c lock.Client) {
	ctx := ctxT(t)
	key := uniqueKey(t)
	replies, err := c.Pipeline(ctx,
		lock.Command{Head: []string{"SET"}, Keys: []string{key}, Args: []string{"v", "PX", "10000"}},
		lock.Command{Head: []string{"INCR"}, Keys: []string{key}},
		lock.Command{Head: []string{"GET"}, Keys: []string{key + ":missing"}},
		lock.Command{Head: []string{"WAIT", "0", "0"}},
	)
	if err != nil {
		t.Fatal(err)
	}
	if len(replies) != 4 {
		t.Fatalf("%d replies, want 4: %v", len(replies), replies)
	}
	if replies[0] != "OK" {
		t.Errorf("SET reply %#v, want OK", replies[0])
	}
	var se *lock.ServerError
	if err, ok := replies[1].(error); !ok || !errors.As(err, &se) {
		t.Errorf("INCR of a string: %#v, want a *lock.ServerError", replies[1])
	}
	if replies[2] != nil {
		t.Errorf("GET of a missing key: %#v, want nil", replies[2])
	}
	if n, ok := replies[3].(int64); !ok || n != 0 {
		t.Errorf("WAIT 0 0 without replicas: %#v, want 0", replies[3])
	}
	if v, err := c.Do(ctx, lock.Command{Head: []string{"GET"}, Keys: []string{key}}); err != nil || v != "v" {
		t.Errorf("GET after the pipeline: %#v, %v", v, err)
	}
}

// clientReplicas takes a fenced lock that one replica must acknowledge,
// renews it likewise, and asks for two replicas of one. Then the replica
// sleeps: a WAIT on the connection that wrote cannot be acknowledged,
// where one on another connection (with no write of its own) would
// count the replica at once.
func clientReplicas(t *testing.T, c lock.Client, admin, replica *redis.Client) {
	ctx := ctxT(t)
	key := uniqueKey(t)
	warm, err := lock.Obtain(ctx, c, key+":warm", 5*time.Second, lock.WithFencing(), lock.WithReplicas(1, time.Second))
	if err != nil {
		t.Fatalf("obtain with one replica: %v", err)
	}
	_ = warm.Release(ctx)
	slept := make(chan error, 1)
	go func() { slept <- replica.Do(context.Background(), "DEBUG", "SLEEP", "0.5").Err() }()
	time.Sleep(50 * time.Millisecond)
	_, err = lock.Obtain(ctx, c, key+":asleep", 5*time.Second, lock.WithFencing(), lock.WithReplicas(1, 200*time.Millisecond))
	if !errors.Is(err, lock.ErrTooFewReplicas) {
		t.Errorf("obtain while the replica sleeps: %v, want ErrTooFewReplicas", err)
	}
	if err := <-slept; err != nil {
		t.Fatalf("DEBUG SLEEP: %v", err)
	}
	l, err := lock.Obtain(ctx, c, key, 5*time.Second, lock.WithFencing(), lock.WithReplicas(1, time.Second))
	if err != nil {
		t.Fatalf("obtain with one replica: %v", err)
	}
	if err := l.Refresh(ctx, 5*time.Second); err != nil {
		t.Errorf("refresh with one replica: %v", err)
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = lock.Obtain(ctx, c, key, 5*time.Second, lock.WithFencing(), lock.WithReplicas(2, 100*time.Millisecond))
	if !errors.Is(err, lock.ErrTooFewReplicas) || !errors.Is(err, lock.ErrNotObtained) {
		t.Fatalf("obtain with two of one replica: %v", err)
	}
	if n := admin.Exists(ctx, key).Val(); n != 0 {
		t.Errorf("the failed Obtain left its token: %q", admin.Get(ctx, key).Val())
	}
}
