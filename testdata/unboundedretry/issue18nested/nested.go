// Package issue18nested holds loops bounded from outside: an outer loop
// that bounds the total, ranges over an int or a finite set of keys.
package issue18nested

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

const ttl = 10 * time.Second

// The inner loop pauses every batch attempts; the outer condition bounds
// the total.
func batches(ctx context.Context, rdb *redis.Client, key, token string, max, batch int) error { // want batches:"acquires lock via"
	for n := 0; n < max; {
		for {
			n++
			if rdb.SetNX(ctx, key, token, ttl).Val() {
				return nil
			}
			if n%batch == 0 {
				break
			}
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

// Near miss: the inner loop tests the outer counter, which it never
// advances.
func innerTestsOuter(ctx context.Context, rdb *redis.Client, key, token string) error { // want innerTestsOuter:"acquires lock via"
	for round := 0; round < 3; round++ {
		for { // want `lock acquisition retried with no bound, at a constant interval`
			if rdb.SetNX(ctx, key, token, ttl).Val() {
				return nil
			}
			if round > 1 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return errBusy
}

// The inner loop's own counter bounds it, the outer's bounds the rounds.
func rounds(ctx context.Context, rdb *redis.Client, key, token string) error { // want rounds:"acquires lock via"
	for round := 0; round < 3; round++ {
		for i := 0; ; i++ {
			if rdb.SetNX(ctx, key, token, ttl).Val() {
				return nil
			}
			if i == 4 {
				break
			}
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

// Near miss: the outer loop has no bound, and its counter is declared
// afresh in every round.
func roundsForever(ctx context.Context, rdb *redis.Client, key, token string) {
	for { // want `lock acquisition retried with no bound, at a constant interval`
		tries := 0
		for tries < 4 {
			tries++
			if rdb.SetNX(ctx, key, token, ttl).Val() {
				return
			}
		}
		time.Sleep(time.Second)
	}
}

type config struct{ Attempts int }

func rangeField(ctx context.Context, rdb *redis.Client, cfg config, key, token string) bool { // want rangeField:"acquires lock via"
	for range cfg.Attempts {
		if rdb.SetNX(ctx, key, token, ttl).Val() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

func rangeFieldIndex(ctx context.Context, rdb *redis.Client, cfg *config, key, token string) bool { // want rangeFieldIndex:"acquires lock via"
	for i := range cfg.Attempts {
		if rdb.SetNX(ctx, key, token, ttl).Val() {
			return true
		}
		time.Sleep(time.Duration(i) * 50 * time.Millisecond)
	}
	return false
}

// Near miss: a range over an int around a loop that spins forever.
func rangeAroundSpin(ctx context.Context, rdb *redis.Client, cfg config, key, token string) {
	for range cfg.Attempts {
		for !rdb.SetNX(ctx, key, token, ttl).Val() { // want `lock acquisition retried with no bound, at a constant interval`
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// One attempt per key of a finite slice is not a retry.
func eachKey(ctx context.Context, rdb *redis.Client, keys []string, token string) (string, bool) { // want eachKey:"acquires lock via"
	for _, k := range keys {
		if rdb.SetNX(ctx, k, token, ttl).Val() {
			return k, true
		}
	}
	return "", false
}

// Near miss: every key is retried until it is free.
func eachKeyForever(ctx context.Context, rdb *redis.Client, keys []string, token string) {
	for _, k := range keys {
		for !rdb.SetNX(ctx, k, token, ttl).Val() { // want `lock acquisition retried with no bound, at a constant interval`
			time.Sleep(50 * time.Millisecond)
		}
	}
}
