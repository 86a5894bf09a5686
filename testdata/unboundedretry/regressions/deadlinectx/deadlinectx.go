// Package deadlinectx pins a loop whose only exit is the acquire's error,
// where the acquire takes a context made with context.WithTimeout or
// WithDeadline before the loop: when that context ends, the acquire
// fails with its error and the loop returns it. It was reported because
// an exit on a Redis error is no bound in general; with a context that
// has no deadline (context.Background, WithCancel of it), or one made
// afresh in each iteration, it is still none.
package deadlinectx

import (
	"context"
	"errors"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomodule/redigo/redis"
)

const lockKey = "lock:report"

func withTimeout(parent context.Context, rdb *goredis.Client, token string) error {
	ctx, cancel := context.WithTimeout(parent, 5*time.Second)
	defer cancel()
	for {
		ok, err := rdb.SetNX(ctx, lockKey, token, time.Minute).Result()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func withDeadline(rdb *goredis.Client, token string, deadline time.Time) error {
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	for {
		err := rdb.SetArgs(ctx, lockKey, token, goredis.SetArgs{Mode: "NX", TTL: time.Minute}).Err()
		if err == nil {
			return nil
		}
		if !errors.Is(err, goredis.Nil) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// derived hands the acquire a child of the deadline's context.
func derived(parent context.Context, rdb *goredis.Client, token string) error {
	timeout, cancel := context.WithTimeout(parent, 5*time.Second)
	defer cancel()
	ctx, stop := context.WithCancel(timeout)
	defer stop()
	for {
		ok, err := rdb.SetNX(ctx, lockKey, token, time.Minute).Result()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// redigoContext: redigo's miss is a nil reply with no error, so only a
// real error, the context's among them, leaves the loop.
func redigoContext(parent context.Context, c redis.Conn, token string) error {
	ctx, cancel := context.WithTimeout(parent, 5*time.Second)
	defer cancel()
	for {
		reply, err := redis.DoContext(c, ctx, "SET", lockKey, token, "NX", "PX", 30000)
		if err != nil {
			return err
		}
		if reply != nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func background(rdb *goredis.Client, token string) error {
	ctx := context.Background()
	for { // want `lock acquisition retried with no bound`
		ok, err := rdb.SetNX(ctx, lockKey, token, time.Minute).Result()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func cancelOnly(rdb *goredis.Client, token string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for { // want `lock acquisition retried with no bound`
		ok, err := rdb.SetNX(ctx, lockKey, token, time.Minute).Result()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// perAttempt gives every attempt a timeout of its own: each attempt
// ends, the loop does not.
func perAttempt(parent context.Context, rdb *goredis.Client, token string) error {
	for { // want `lock acquisition retried with no bound`
		ctx, cancel := context.WithTimeout(parent, time.Second)
		ok, err := rdb.SetNX(ctx, lockKey, token, time.Minute).Result()
		cancel()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// errorIgnored has the deadline but never looks at the error: once the
// context ends, every attempt fails at once and the loop spins.
func errorIgnored(parent context.Context, rdb *goredis.Client, token string) {
	ctx, cancel := context.WithTimeout(parent, 5*time.Second)
	defer cancel()
	for { // want `lock acquisition retried with no bound`
		ok, _ := rdb.SetNX(ctx, lockKey, token, time.Minute).Result()
		if ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
