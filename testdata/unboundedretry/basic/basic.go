package basic

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

// The classic: spin on SETNX with a constant sleep.
func lockForever(ctx context.Context, rdb *redis.Client, key, token string) {
	for { // want "lock acquisition retried with no bound, at a constant interval; add a bound and jitter, or use `fix\\.WithMaxWait`"
		if rdb.SetNX(ctx, key, token, ttl).Val() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Near miss: the same loop with a context deadline.
func lockUntilDone(ctx context.Context, rdb *redis.Client, key, token string) error { // want lockUntilDone:"acquires lock via SET NX"
	for {
		if rdb.SetNX(ctx, key, token, ttl).Val() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// The acquire is the loop condition.
func lockInCondition(ctx context.Context, rdb redis.UniversalClient, jobID, token string) {
	key := fmt.Sprintf("lock:job:%s", jobID)
	for !rdb.SetNX(ctx, key, token, ttl).Val() { // want `lock acquisition retried with no bound`
		time.Sleep(time.Duration(rand.IntN(100)) * time.Millisecond)
	}
}

// Near miss: the condition also counts the attempts.
func lockInConditionCounted(ctx context.Context, rdb redis.UniversalClient, jobID, token string) bool { // want lockInConditionCounted:"acquires lock via SET NX"
	key := fmt.Sprintf("lock:job:%s", jobID)
	for i := 0; i < 10 && !rdb.SetNX(ctx, key, token, ttl).Val(); i++ {
		time.Sleep(time.Duration(rand.IntN(100)) * time.Millisecond)
	}
	return rdb.Get(ctx, key).Val() == token
}

// Returning on a Redis error does not bound the wait under contention.
func lockOrError(ctx context.Context, rdb *redis.Client, key, token string) error { // want lockOrError:"acquires lock via SET NX"
	backoff := 10 * time.Millisecond
	for { // want `lock acquisition retried with no bound`
		ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
		if err != nil {
			return fmt.Errorf("acquire %s: %w", key, err)
		}
		if ok {
			return nil
		}
		time.Sleep(backoff)
		backoff *= 2
	}
}

// A counter that is incremented but never compared, and time.Since in a
// log line only.
func lockLogged(ctx context.Context, rdb *redis.Client, key, token string) {
	start := time.Now()
	attempts := 0
	for { // want `lock acquisition retried with no bound, at a constant interval`
		attempts++
		if rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err() == nil {
			log.Printf("locked %s after %d attempts in %v", key, attempts, time.Since(start))
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Near miss: the same counter, compared with a limit.
func lockCounted(ctx context.Context, rdb *redis.Client, key, token string) error { // want lockCounted:"acquires lock via SET NX"
	attempts := 0
	for {
		attempts++
		if rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err() == nil {
			return nil
		}
		if attempts >= 5 {
			return fmt.Errorf("lock %s: busy", key)
		}
		time.Sleep(time.Duration(attempts) * 50 * time.Millisecond)
	}
}

// A ticker paces the loop but never ends it.
func lockOnTicker(ctx context.Context, rdb *redis.Client, key, token string) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for range t.C { // want `lock acquisition retried with no bound`
		if ok, _ := rdb.SetNX(ctx, key, token, ttl).Result(); ok {
			break
		}
	}
}

// Near miss: the ticker loop stops with the context.
func lockOnTickerCtx(ctx context.Context, rdb *redis.Client, key, token string) bool { // want lockOnTickerCtx:"acquires lock via SET NX"
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
		if ok, _ := rdb.SetNX(ctx, key, token, ttl).Result(); ok {
			return true
		}
	}
}

// Near miss: one attempt per job is not a retry.
type job struct{ ID string }

func claimAll(ctx context.Context, rdb *redis.Client, jobs []job, worker string) []job {
	var mine []job
	for _, j := range jobs {
		if rdb.SetNX(ctx, "lock:"+j.ID, worker, ttl).Val() {
			mine = append(mine, j)
		}
	}
	return mine
}

// Near miss: a worker that never exits is not a retry loop.
func campaign(ctx context.Context, rdb *redis.Client, id string, lead func()) {
	for {
		if rdb.SetNX(ctx, "leader:scheduler", id, 10*time.Second).Val() {
			lead()
		}
		time.Sleep(5 * time.Second)
	}
}

// Near miss: the result is discarded, nothing is retried.
func fireAndForget(ctx context.Context, rdb *redis.Client, keys []string) {
	for i := 0; ; i++ {
		if i == len(keys) {
			break
		}
		rdb.SetNX(ctx, keys[i], 1, time.Minute)
	}
}

// Only the inner loop is reported.
func nested(ctx context.Context, rdb *redis.Client, keys []string, token string) {
	for _, key := range keys {
		for { // want `lock acquisition retried with no bound, at a constant interval`
			if rdb.SetNX(ctx, key, token, ttl).Val() {
				break
			}
			time.Sleep(time.Second)
		}
	}
}

// A bounded inner loop inside an unbounded outer loop retries forever.
func rounds(ctx context.Context, rdb *redis.Client, key, token string) {
	for { // want `lock acquisition retried with no bound, at a constant interval`
		for i := 0; i < 3; i++ {
			if rdb.SetNX(ctx, key, token, ttl).Val() {
				return
			}
		}
		time.Sleep(time.Minute)
	}
}

// Labelled break out of the outer loop on success only.
func labelled(ctx context.Context, rdb *redis.Client, keys []string, token string) {
retry:
	for { // want `lock acquisition retried with no bound, at a constant interval`
		for _, key := range keys {
			if !rdb.SetNX(ctx, key, token, ttl).Val() {
				time.Sleep(10 * time.Millisecond)
				continue retry
			}
		}
		break retry
	}
}

// Near miss: the labelled break is taken when the deadline passes.
func labelledDeadline(ctx context.Context, rdb *redis.Client, keys []string, token string, deadline time.Time) bool { // want labelledDeadline:"acquires lock via SET NX"
	got := false
retry:
	for !got {
		for _, key := range keys {
			if time.Now().After(deadline) {
				break retry
			}
			got = rdb.SetNX(ctx, key, token, ttl).Val()
		}
	}
	return got
}

// A closure assigned to a local variable acquires.
func closure(ctx context.Context, rdb *redis.Client, key, token string) {
	try := func() bool {
		return rdb.SetNX(ctx, key, token, ttl).Val()
	}
	for !try() { // want `lock acquisition retried with no bound, at a constant interval`
		time.Sleep(20 * time.Millisecond)
	}
}

// Suppressed with a reason.
func suppressed(ctx context.Context, rdb *redis.Client, key string) {
	//locklint:ignore unboundedretry single-instance migration, the operator kills it by hand
	for !rdb.SetNX(ctx, key, "migrate", ttl).Val() {
		time.Sleep(time.Second)
	}
}
