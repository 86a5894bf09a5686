// Package issue12periodic holds loops that acquire once per tick, per
// item or per benchmark iteration: a failed acquire is skipped or fatal,
// not retried, and the loop goes on after a successful one.
package issue12periodic

import (
	"context"
	"log"
	"testing"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
)

const ttl = 10 * time.Second

// A periodic job: each tick tries the lock, logs when it is busy, and
// waits for the next tick.
func periodic(ctx context.Context, rdb *redis.Client, token string, run func() error) error { // want periodic:"acquires lock via"
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for range t.C {
		ok, err := rdb.SetNX(ctx, "lock:report", token, ttl).Result()
		if err != nil {
			return err
		}
		if !ok {
			log.Print("report: another instance holds the lock")
			continue
		}
		if err := run(); err != nil {
			log.Print(err)
		}
		rdb.Del(ctx, "lock:report")
	}
	return nil
}

// Near miss: the ticker paces a wait for the lock, which ends only once
// it is held.
func periodicUntilHeld(ctx context.Context, rdb *redis.Client, token string) error { // want periodicUntilHeld:"acquires lock via"
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for range t.C { // want `lock acquisition retried with no bound`
		ok, err := rdb.SetNX(ctx, "lock:report", token, ttl).Result()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
	}
	return nil
}

// A periodic job in a for-select over a ticker.
func periodicSelect(ctx context.Context, rdb *redis.Client, token string, stop <-chan struct{}, run func()) error { // want periodicSelect:"acquires lock via"
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		<-t.C
		if err := rdb.SetArgs(ctx, "lock:sync", token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err(); err != nil {
			if err == redis.Nil {
				continue
			}
			return err
		}
		run()
	}
}

type job struct{ ID string }

// One claim per job from a queue: a held job is skipped.
func claimEach(ctx context.Context, rdb *redis.Client, next func() (job, error), token string, work func(job)) error { // want claimEach:"acquires lock via"
	for {
		j, err := next()
		if err != nil {
			return err
		}
		if !rdb.SetNX(ctx, "lock:job:"+j.ID, token, ttl).Val() {
			continue
		}
		work(j)
	}
}

// Near miss: a job's lock is waited for until it is free.
func claimWait(ctx context.Context, rdb *redis.Client, next func() (job, error), token string) (job, error) { // want claimWait:"acquires lock via"
	j, err := next()
	if err != nil {
		return job{}, err
	}
	for { // want `lock acquisition retried with no bound`
		if rdb.SetNX(ctx, "lock:job:"+j.ID, token, ttl).Val() {
			return j, nil
		}
		if err := rdb.Ping(ctx).Err(); err != nil {
			return job{}, err
		}
	}
}

// A benchmark acquires and releases once per iteration; a failed acquire
// is fatal.
func benchmarkCycle(b *testing.B, rdb *redis.Client) {
	ctx := context.Background()
	for b.Loop() {
		if !rdb.SetNX(ctx, "bench", "token", time.Minute).Val() {
			b.Fatal("not acquired")
		}
		rdb.Del(ctx, "bench")
	}
}

func obtain(ctx context.Context, rdb *redis.Client, key string) (*lease, error) { // want obtain:"acquires lock via SET NX"
	if err := rdb.SetArgs(ctx, key, "t", redis.SetArgs{Mode: "NX", TTL: ttl}).Err(); err != nil {
		return nil, err
	}
	return &lease{rdb: rdb, key: key}, nil
}

type lease struct {
	rdb *redis.Client
	key string
}

func (l *lease) release(ctx context.Context) error { return l.rdb.Del(ctx, l.key).Err() }

// The same through a helper that returns a lock handle.
func benchmarkHandle(b *testing.B, rdb *redis.Client) {
	ctx := context.Background()
	for b.Loop() {
		l, err := obtain(ctx, rdb, "bench")
		if err != nil {
			b.Fatal(err)
		}
		if err := l.release(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// Near miss: the benchmark spins on a held lock instead of failing.
func benchmarkSpin(b *testing.B, rdb *redis.Client) {
	ctx := context.Background()
	for b.Loop() {
		for !rdb.SetNX(ctx, "bench", "token", time.Minute).Val() { // want `lock acquisition retried with no bound`
		}
		rdb.Del(ctx, "bench")
	}
}

// redigo: a periodic job that skips a busy tick.
func periodicRedigo(c redigo.Conn, token string, tick <-chan time.Time, run func()) error { // want periodicRedigo:"acquires lock via"
	for range tick {
		reply, err := redigo.String(c.Do("SET", "lock:gc", token, "NX", "PX", 60000))
		if err == redigo.ErrNil {
			continue
		}
		if err != nil {
			return err
		}
		if reply == "OK" {
			run()
		}
	}
	return nil
}

// Near miss, redigo: the reply decides whether to try again.
func waitRedigo(c redigo.Conn, token string, tick <-chan time.Time) error { // want waitRedigo:"acquires lock via"
	for range tick { // want `lock acquisition retried with no bound`
		reply, err := redigo.String(c.Do("SET", "lock:gc", token, "NX", "PX", 60000))
		if err != nil && err != redigo.ErrNil {
			return err
		}
		if reply == "OK" {
			return nil
		}
	}
	return nil
}

// A flag set from the acquire ends the loop at its condition: this is a
// retry, not one acquire per iteration.
func flagFromAcquire(ctx context.Context, rdb *redis.Client, key, token string) {
	locked := false
	for !locked { // want `lock acquisition retried with no bound, at a constant interval`
		locked = rdb.SetNX(ctx, key, token, ttl).Val()
		if !locked {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func flagSetOnSuccess(ctx context.Context, rdb *redis.Client, key, token string) {
	got := false
	for !got { // want `lock acquisition retried with no bound, at a constant interval`
		if rdb.SetNX(ctx, key, token, ttl).Val() {
			got = true
		} else {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// Near miss: the same flag loop with an attempt limit.
func flagCounted(ctx context.Context, rdb *redis.Client, key, token string) bool { // want flagCounted:"acquires lock via"
	got := false
	for i := 0; !got && i < 5; i++ {
		got = rdb.SetNX(ctx, key, token, ttl).Val()
	}
	return got
}

// A claim of the first free job from a channel: a held job is passed
// over for the next one, never acquired again.
func claimFirstFree(ctx context.Context, rdb *redis.Client, jobs <-chan job, token string) job {
	for {
		j := <-jobs
		if rdb.SetNX(ctx, "lock:job:"+j.ID, token, ttl).Val() {
			return j
		}
	}
}

// Near miss: the job received once is waited for.
func claimReceivedOnce(ctx context.Context, rdb *redis.Client, jobs <-chan job, token string) job {
	j := <-jobs
	for { // want `lock acquisition retried with no bound`
		if rdb.SetNX(ctx, "lock:job:"+j.ID, token, ttl).Val() {
			return j
		}
	}
}
