// Package clients retries acquires through go-redis v8 and rueidis, and
// holds odd shapes the analyzer must survive.
package clients

import (
	"context"
	"time"

	redisv8 "github.com/go-redis/redis/v8"
	"github.com/redis/rueidis"
)

// go-redis v8, the acquire in a select-paced loop with no exit but success.
func v8Spin(ctx context.Context, rdb *redisv8.Client, key, token string) {
	for { // want "lock acquisition retried with no bound, at a constant interval; add a bound and jitter, or use `lock\\.WithMaxWait` via `fixgoredis8\\.Client`$"
		if rdb.SetNX(ctx, key, token, time.Minute).Val() {
			return
		}
		<-time.After(250 * time.Millisecond)
	}
}

// rueidis: SET NX PX built with the command builder.
func rueidisSpin(ctx context.Context, c rueidis.Client, key, token string) {
	for c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(time.Minute).Build()).Error() != nil { // want "lock acquisition retried with no bound.*, or use `lock\\.WithMaxWait` via `fixrueidis\\.Client`$"
	}
}

// Near miss: rueidis, bounded by the context's deadline.
func rueidisDeadline(ctx context.Context, c rueidis.Client, key, token string) error { // want rueidisDeadline:"acquires lock via SET NX"
	deadline, ok := ctx.Deadline()
	for ok {
		err := c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(time.Minute).Build()).Error()
		if err == nil || time.Now().After(deadline) {
			return err
		}
	}
	return nil
}

// Odd shapes: a loop in a package-level closure, an empty select, a loop
// inside a goroutine and a goto back into the body.
var spin = func(ctx context.Context, rdb *redisv8.Client) {
	for !rdb.SetNX(ctx, "lock:init", 1, time.Minute).Val() { // want `lock acquisition retried with no bound`
	}
}

func odd(ctx context.Context, rdb *redisv8.Client) {
	go func() {
		for !rdb.SetNX(ctx, "lock:bg", 1, time.Minute).Val() { // want `lock acquisition retried with no bound, at a constant interval`
			time.Sleep(time.Second)
		}
	}()
	i := 0
again:
	for rdb.SetNX(ctx, "lock:odd", 1, time.Minute).Val() {
		i++
		if i < 3 {
			goto again
		}
		select {}
	}
}
