// Command stalewriter reproduces the stale-writer failure of a lease-based
// lock and its repair by fencing: worker A takes a 300 ms lease, pauses for
// 450 ms, worker B takes the lock over, and the fenced resource accepts B's
// write and rejects A's late one. A's release after expiry finds the lock
// not held and leaves B's lock alone.
//
// By default it runs on an embedded miniredis; -addr points it at a real
// server (use a lab instance, not production).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/locklint/locklint/analyzer/fix"
	"github.com/redis/go-redis/v9"
)

const (
	lockKey = "stalewriter:lock:{sku42}"
	leaseA  = 300 * time.Millisecond
	pauseA  = 450 * time.Millisecond
	leaseB  = 5 * time.Second
)

func main() {
	addr := flag.String("addr", "", "Redis address (host:port); empty runs an embedded miniredis")
	user := flag.String("user", "", "Redis ACL user")
	password := flag.String("password", "", "Redis password")
	flag.Parse()

	if *addr == "" {
		m, err := miniredis.Run()
		if err != nil {
			log.Fatal(err)
		}
		defer m.Close()
		defer followClock(m)()
		*addr = m.Addr()
		fmt.Println("using embedded miniredis at", m.Addr())
	}
	rdb := redis.NewClient(&redis.Options{Addr: *addr, Username: *user, Password: *password})
	defer rdb.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := run(ctx, rdb, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// outcome is what the lab observed, for its test.
type outcome struct {
	fenceA, fenceB int64
	writeB, writeA error
	releaseA       error
	bStillOwns     bool
	releaseB       error
	finalFence     int64
	finalValue     string
	lostA          error
}

func run(ctx context.Context, rdb redis.UniversalClient, w io.Writer) (outcome, error) {
	var out outcome
	var resource fix.FencedResource[string]

	// A previous run may still hold the lock on a real server: wait it out.
	a, err := fix.Obtain(ctx, rdb, lockKey, leaseA, fix.WithFencing(), fix.WithMaxWait(10*time.Second))
	if err != nil {
		return out, fmt.Errorf("worker A: %w", err)
	}
	out.fenceA = a.Fence()
	fmt.Fprintf(w, "A acquired %s with fence %d, lease %s (until %s)\n",
		lockKey, a.Fence(), leaseA, a.Until().Format("15:04:05.000"))

	fmt.Fprintf(w, "A pauses for %s, past its lease\n", pauseA)
	time.Sleep(pauseA)
	<-a.Context().Done()
	out.lostA = context.Cause(a.Context())
	fmt.Fprintf(w, "A's lock context has ended: %v\n", out.lostA)

	b, err := fix.Obtain(ctx, rdb, lockKey, leaseB, fix.WithFencing(), fix.WithMaxWait(5*time.Second))
	if err != nil {
		return out, fmt.Errorf("worker B: %w", err)
	}
	defer b.Release(ctx)
	out.fenceB = b.Fence()
	fmt.Fprintf(w, "B acquired %s with fence %d, lease %s\n", lockKey, b.Fence(), leaseB)

	out.writeB = resource.Write(b.Fence(), "worker-B")
	fmt.Fprintf(w, "B writes with fence %d: %s\n", b.Fence(), verdict(out.writeB))

	// A resumes unaware of the pause and writes with its old fence.
	out.writeA = resource.Write(a.Fence(), "worker-A")
	fmt.Fprintf(w, "A writes with fence %d: %s\n", a.Fence(), verdict(out.writeA))

	out.releaseA = a.Release(ctx)
	switch {
	case errors.Is(out.releaseA, fix.ErrNotHeld):
		fmt.Fprintf(w, "A releases after expiry: not held, nothing deleted\n")
	case out.releaseA != nil:
		return out, fmt.Errorf("worker A release: %w", out.releaseA)
	default:
		fmt.Fprintf(w, "A releases after expiry: deleted (unexpected)\n")
	}

	owner, err := rdb.Get(ctx, lockKey).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return out, err
	}
	out.bStillOwns = owner == b.Token()
	fmt.Fprintf(w, "B still owns the lock: %t\n", out.bStillOwns)

	out.releaseB = b.Release(ctx)
	if out.releaseB != nil {
		return out, fmt.Errorf("worker B release: %w", out.releaseB)
	}
	fmt.Fprintf(w, "B releases: ok\n")

	out.finalFence, out.finalValue = resource.Load()
	fmt.Fprintf(w, "resource: value %q written with fence %d\n", out.finalValue, out.finalFence)
	return out, nil
}

func verdict(err error) string {
	if err != nil {
		return "rejected (" + err.Error() + ")"
	}
	return "accepted"
}

// followClock makes the embedded miniredis expire keys in real time; on its
// own it only moves its clock when told to.
func followClock(m *miniredis.Miniredis) (stop func()) {
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		last := time.Now()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				now := time.Now()
				m.SetTime(now)
				m.FastForward(now.Sub(last))
				last = now
			}
		}
	}()
	return func() {
		close(done)
		<-exited
	}
}
