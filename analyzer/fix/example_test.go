package fix_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/redis/go-redis/v9"
)

// exampleClient is a service's client, built with default options. The
// examples compile as part of the tests but do not run: the library's
// behaviour tests (internal/behaviour) run the same calls against real
// servers.
func exampleClient() (*redis.Client, func()) {
	c := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
	return c, func() { c.Close() }
}

func ExampleObtain() {
	rdb, done := exampleClient()
	defer done()
	ctx := context.Background()

	l, err := fix.Obtain(ctx, rdb, "lock:{report}", 30*time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer l.Release(ctx)

	// A second caller makes one attempt (no deadline, no WithMaxWait).
	_, err = fix.Obtain(ctx, rdb, "lock:{report}", 30*time.Second)
	fmt.Println(errors.Is(err, fix.ErrNotObtained))
	// Prints: true
}

func ExampleDo() {
	rdb, done := exampleClient()
	defer done()

	err := fix.Do(context.Background(), rdb, "lock:{rebuild}", 10*time.Second, func(ctx context.Context) error {
		// ctx ends if the lock is lost; the watchdog renews it meanwhile.
		fmt.Println("rebuilding")
		return nil
	})
	fmt.Println(err)
	// Prints:
	// rebuilding
	// <nil>
}

// Hand-rolled code that stores its own token uses the function forms.
func ExampleRelease() {
	rdb, done := exampleClient()
	defer done()
	ctx := context.Background()

	rdb.Set(ctx, "lock:{legacy}", "my-token", time.Minute)
	fmt.Println(fix.Refresh(ctx, rdb, "lock:{legacy}", "my-token", 2*time.Minute))
	fmt.Println(fix.Release(ctx, rdb, "lock:{legacy}", "other-token") != nil)
	fmt.Println(fix.Release(ctx, rdb, "lock:{legacy}", "my-token"))
	// Prints:
	// <nil>
	// true
	// <nil>
}

func ExampleFencedResource() {
	rdb, done := exampleClient()
	defer done()
	ctx := context.Background()
	var feed fix.FencedResource[string]

	a, _ := fix.Obtain(ctx, rdb, "lock:{feed}", 30*time.Second, fix.WithFencing())
	a.Release(ctx)
	b, _ := fix.Obtain(ctx, rdb, "lock:{feed}", 30*time.Second, fix.WithFencing())
	defer b.Release(ctx)

	fmt.Println(feed.Write(b.Fence(), "written by b"))
	// a's write comes late, after b's: its fence is older, so it is rejected.
	fmt.Println(errors.Is(feed.Write(a.Fence(), "written by a"), fix.ErrStaleFence))
	_, v := feed.Load()
	fmt.Println(v)
	// Prints:
	// <nil>
	// true
	// written by b
}

func ExampleWithWatchdog() {
	rdb, done := exampleClient()
	defer done()
	ctx := context.Background()

	// Renewed every ttl/3 until Release, for at most an hour.
	l, err := fix.Obtain(ctx, rdb, "lock:{import}", 3*time.Second, fix.WithWatchdog(time.Hour))
	if err != nil {
		fmt.Println(err)
		return
	}
	select {
	case <-l.Context().Done():
		fmt.Println("lost:", context.Cause(l.Context()))
	case <-time.After(100 * time.Millisecond):
		fmt.Println("still held")
	}
	fmt.Println(l.Release(ctx))
	// Prints:
	// still held
	// <nil>
}
