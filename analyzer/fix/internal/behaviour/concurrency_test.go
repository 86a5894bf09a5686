package behaviour_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/redis/go-redis/v9"
)

// holding is one ownership epoch as a worker saw it: from after Obtain
// returned until the earlier of its local lease end and the start of its
// release. The server's ownership covers at least that interval, so
// epochs must not overlap.
type holding struct {
	fence    int64
	from, to time.Time
}

func TestManyWorkersPausingPastLeaseNeverOverlapOrWriteStale(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		const (
			workers = 32
			ttl     = 80 * time.Millisecond
			runFor  = 2500 * time.Millisecond
			key     = "lock:{shared}"
		)
		ctx := ctxT(t)
		var (
			mu       sync.Mutex
			resource fix.FencedResource[int]
			accepted []int64
			rejected int
			epochs   []holding
			notHeld  int
		)
		stop := time.Now().Add(runFor)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Now().Before(stop) {
					l, err := fix.Obtain(ctx, s.client, key, ttl, fix.WithFencing(), fix.WithMaxWait(time.Second))
					if errors.Is(err, fix.ErrNotObtained) {
						continue
					}
					if err != nil {
						t.Error(err)
						return
					}
					from := time.Now()
					// Half the holders pause past their lease.
					time.Sleep(time.Duration(rand.Int64N(int64(2 * ttl))))
					if rand.IntN(2) == 0 {
						err := l.Refresh(ctx, ttl)
						switch {
						case err == nil:
							owner := s.admin.Get(ctx, key).Val()
							if time.Now().Before(l.Until()) && owner != l.Token() {
								t.Errorf("worker %d: refreshed, yet the key holds %q within the lease", w, owner)
							}
						case !errors.Is(err, fix.ErrNotHeld) && !errors.Is(err, fix.ErrLost):
							t.Errorf("worker %d: refresh: %v", w, err)
						}
					}
					mu.Lock()
					if err := resource.Write(l.Fence(), w); err == nil {
						accepted = append(accepted, l.Fence())
					} else {
						rejected++
					}
					mu.Unlock()

					releaseStart := time.Now()
					until := l.Until()
					err = l.Release(ctx)
					if err != nil && !errors.Is(err, fix.ErrNotHeld) {
						t.Errorf("worker %d: release: %v", w, err)
					}
					mu.Lock()
					if err != nil {
						notHeld++
					}
					epochs = append(epochs, holding{l.Fence(), from, minTime(until, releaseStart)})
					mu.Unlock()
				}
			}()
		}
		wg.Wait()

		if len(epochs) < 10 {
			t.Fatalf("only %d acquisitions", len(epochs))
		}
		if !slices.IsSorted(accepted) || len(slices.Compact(slices.Clone(accepted))) != len(accepted) {
			t.Errorf("accepted fences not strictly increasing: %v", accepted)
		}
		slices.SortFunc(epochs, func(a, b holding) int { return int(a.fence - b.fence) })
		for i := 1; i < len(epochs); i++ {
			prev, cur := epochs[i-1], epochs[i]
			if cur.fence == prev.fence {
				t.Errorf("fence %d issued twice", cur.fence)
			}
			if cur.from.Before(prev.to.Add(-s.expiryError)) {
				t.Errorf("fence %d acquired %s before fence %d's lease or release ended",
					cur.fence, prev.to.Sub(cur.from), prev.fence)
			}
		}
		if n := s.admin.Exists(ctx, key).Val(); n != 0 {
			t.Errorf("lock key left behind: %q, PTTL %s, queue %q", s.admin.Get(ctx, key).Val(), s.admin.PTTL(ctx, key).Val(), s.admin.Get(ctx, key+":queue").Val())
		}
		t.Logf("%d acquisitions, %d writes accepted, %d stale writes rejected, %d releases found the lock gone",
			len(epochs), len(accepted), rejected, notHeld)
	})
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// TestReleaserDoesNotWinEveryRace runs workers that release and at once ask
// again: without turns the releaser, already awake, wins nearly every time.
func TestReleaserDoesNotWinEveryRace(t *testing.T) {
	eachServer(t, func(t *testing.T, s target) {
		for _, fair := range []bool{true, false} {
			same, total := contend(t, s.client, fair)
			t.Logf("fair=%t: releaser re-acquired %d of %d times", fair, same, total)
			if fair && total > 20 && same*10 > total*8 {
				t.Errorf("with turns the releaser still won %d of %d", same, total)
			}
		}
	})
}

func contend(t *testing.T, client redis.UniversalClient, fair bool) (same, total int) {
	const workers = 4
	opts := []fix.Option{fix.WithMaxWait(5 * time.Second)}
	if !fair {
		opts = append(opts, fix.WithoutFairness())
	}
	ctx := ctxT(t)
	var mu sync.Mutex
	last := -1
	stop := time.Now().Add(time.Second)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				l, err := fix.Obtain(ctx, client, "lock:{race}", time.Second, opts...)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if last == w {
					same++
				}
				last = w
				total++
				mu.Unlock()
				time.Sleep(5 * time.Millisecond)
				if err := l.Release(ctx); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	return same, total
}
