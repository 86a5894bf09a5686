// Package recurseonerror pins issue 32's miss of a retry by recursion on a
// Redis error: when SETNX fails with an error (Redis down, a timeout) the
// lock function logs, sleeps and calls itself again, with nothing that
// ever stops it; while Redis stays unreachable the caller never returns
// and the stack grows. The near miss passes an attempt count that it
// steps and compares.
package recurseonerror

import (
	"context"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

type Locker struct {
	rdb *redis.Client
	ttl time.Duration
}

// Must report: every Redis error leads to another attempt, forever.
func (l *Locker) Lock(ctx context.Context, key, token string) (bool, error) { // want Lock:"acquires lock via SET NX"
	ok, err := l.rdb.SetNX(ctx, key, token, l.ttl).Result()
	if err != nil {
		log.Printf("lock %s: %v; retrying", key, err)
		time.Sleep(500 * time.Millisecond)
		return l.Lock(ctx, key, token) // want `lock acquisition retried by recursion with no bound`
	}
	return ok, nil
}

const maxAttempts = 5

// Near miss (silent): the attempt count bounds the recursion.
func (l *Locker) LockAttempt(ctx context.Context, key, token string, attempt int) (bool, error) { // want LockAttempt:"acquires lock via SET NX"
	ok, err := l.rdb.SetNX(ctx, key, token, l.ttl).Result()
	if err != nil {
		if attempt >= maxAttempts {
			return false, err
		}
		time.Sleep(500 * time.Millisecond)
		return l.LockAttempt(ctx, key, token, attempt+1)
	}
	return ok, nil
}
