// Package issue12recursion retries acquires by recursion: on a failed
// acquire the function sleeps and calls itself again.
package issue12recursion

import (
	"context"
	"errors"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

const ttl = 10 * time.Second

type Locker struct{ rdb *redis.Client }

func (l *Locker) Lock(ctx context.Context, key, token string) error { // want Lock:"acquires lock via SET NX"
	ok, err := l.rdb.SetNX(ctx, key, token, ttl).Result()
	if err != nil {
		return err
	}
	if ok {
		return nil
	}
	time.Sleep(100 * time.Millisecond)
	return l.Lock(ctx, key, token) // want `lock acquisition retried by recursion with no bound`
}

// Near miss: the attempt parameter bounds the depth.
func (l *Locker) LockN(ctx context.Context, key, token string, attempt int) error { // want LockN:"acquires lock via SET NX"
	if l.rdb.SetNX(ctx, key, token, ttl).Val() {
		return nil
	}
	if attempt >= 5 {
		return errBusy
	}
	time.Sleep(time.Duration(attempt) * 50 * time.Millisecond)
	return l.LockN(ctx, key, token, attempt+1)
}

// Near miss: the context ends it.
func (l *Locker) LockCtx(ctx context.Context, key, token string) error { // want LockCtx:"acquires lock via SET NX"
	if l.rdb.SetNX(ctx, key, token, ttl).Val() {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(100 * time.Millisecond):
	}
	return l.LockCtx(ctx, key, token)
}

// Near miss: a deadline passed down unchanged.
func lockUntil(ctx context.Context, rdb *redis.Client, key, token string, deadline time.Time) bool { // want lockUntil:"acquires lock via SET NX"
	if rdb.SetNX(ctx, key, token, ttl).Val() {
		return true
	}
	if time.Now().After(deadline) {
		return false
	}
	time.Sleep(10 * time.Millisecond)
	return lockUntil(ctx, rdb, key, token, deadline)
}

// The deadline is recomputed on every call.
func lockMovingDeadline(ctx context.Context, rdb *redis.Client, key, token string, wait time.Duration) bool { // want lockMovingDeadline:"acquires lock via SET NX"
	if rdb.SetNX(ctx, key, token, ttl).Val() {
		return true
	}
	deadline := time.Now().Add(wait)
	if time.Now().After(deadline) {
		return false
	}
	time.Sleep(10 * time.Millisecond)
	return lockMovingDeadline(ctx, rdb, key, token, wait) // want `lock acquisition retried by recursion with no bound`
}

// The attempt is passed on unchanged.
func lockSameAttempt(ctx context.Context, rdb *redis.Client, key, token string, attempt int) bool { // want lockSameAttempt:"acquires lock via SET NX"
	if rdb.SetNX(ctx, key, token, ttl).Val() {
		return true
	}
	if attempt > 3 {
		return false
	}
	return lockSameAttempt(ctx, rdb, key, token, attempt) // want `lock acquisition retried by recursion with no bound`
}

// Near miss: a walk over a tree takes one lock per node and recurses
// whether or not it got it.
type node struct {
	id       string
	children []*node
}

func claimTree(ctx context.Context, rdb *redis.Client, n *node, token string) int {
	got := 0
	if rdb.SetNX(ctx, "lock:"+n.id, token, ttl).Val() {
		got++
	}
	for _, c := range n.children {
		got += claimTree(ctx, rdb, c, token)
	}
	return got
}

// redigo, generic over the connection.
func lockRedigo[C redigo.Conn](c C, key, token string) bool { // want lockRedigo:"acquires lock via SET NX"
	reply, err := redigo.String(c.Do("SET", key, token, "NX", "PX", 10000))
	if err == nil && reply == "OK" {
		return true
	}
	time.Sleep(50 * time.Millisecond)
	return lockRedigo(c, key, token) // want `lock acquisition retried by recursion with no bound`
}

// Near miss, redigo: the remaining tries count down.
func lockRedigoTries(c redigo.Conn, key, token string, left int) bool { // want lockRedigoTries:"acquires lock via SET NX"
	reply, err := redigo.String(c.Do("SET", key, token, "NX", "PX", 10000))
	if err == nil && reply == "OK" {
		return true
	}
	if left == 0 {
		return false
	}
	return lockRedigoTries(c, key, token, left-1)
}
