package lock

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// inProcess answers as an uncontended Redis 7.0 does (no DELEX), without
// a network, so that what is counted is the library's own work.
type inProcess struct{}

func (inProcess) Do(_ context.Context, cmd Command) (any, error) {
	_ = cmd.Values() // what every adapter but rueidis's and valkey-go's does
	switch cmd.Head[0] {
	case "SET":
		return "OK", nil
	case "DELEX":
		return nil, &ServerError{Err: errors.New("ERR unknown command 'DELEX'")}
	case "EVALSHA":
		// The fenced acquire's fence, or the release script's deleted key.
		return int64(1), nil
	}
	return nil, errors.New("inProcess: unexpected " + strings.Join(cmd.Head, " "))
}

func (inProcess) Pipeline(context.Context, ...Command) ([]any, error) {
	return nil, errors.New("inProcess: no pipelines")
}

func (inProcess) Subscribe(context.Context, bool, ...string) (Subscription, error) {
	return nil, errors.New("inProcess: no pub/sub")
}

func (inProcess) ServerID(context.Context, string) string { return "inProcess" }
func (inProcess) Info() Info                              { return Info{Deadlines: true} }

// The library's allocations per uncontended Obtain and Release are a
// budget, so that the cycle's cost does not creep back up (it was 27 and
// 29 before the commands were built in one allocation each, the SHA1s
// boxed once, the release bound and the lease alarm made allocation-free
// and the lock's Context made when first asked for; 16 and 18 before each
// command's words were boxed in the same allocation as the words, and the
// lease's word kept from one Obtain to the next; 12 and 14 before the
// key and token were boxed once for all the commands of an acquisition
// and its lock; 10 and 12 before the lock was made in its acquisition's
// allocation; 9 and 11 before the release's bound, over a context that
// cannot be cancelled, was one allocation). A client adds its own:
// go-redis v9 about 11 per cycle.
func TestCycleAllocations(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		opts   []Option
		budget float64
	}{
		{"SET NX PX", nil, 7},
		{"fenced", []Option{WithFencing()}, 9},
	} {
		var err error
		got := testing.AllocsPerRun(200, func() {
			var l *Lock
			if l, err = Obtain(ctx, inProcess{}, "allocs", time.Minute, c.opts...); err == nil {
				err = l.Release(ctx)
			}
		})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got > c.budget {
			t.Errorf("%s: %.0f allocations per Obtain and Release, budget %.0f", c.name, got, c.budget)
		}
	}
}

func BenchmarkCycleInProcess(b *testing.B) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		opts []Option
	}{{"plain", nil}, {"fenced", []Option{WithFencing()}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				l, err := Obtain(ctx, inProcess{}, "allocs", time.Minute, c.opts...)
				if err != nil {
					b.Fatal(err)
				}
				if err := l.Release(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The acquisition and its lock are one allocation, whose size class
// counts in a cycle's bytes: an object of more than 512 bytes carries an
// 8-byte header, so up to 632 bytes fit the 640-byte class, and the next
// is 704.
func TestAcquisitionSize(t *testing.T) {
	if n := unsafe.Sizeof(acquisition{}); n > 632 {
		t.Errorf("an acquisition is %d bytes, budget 632 (the 640-byte size class with its header)", n)
	}
}
