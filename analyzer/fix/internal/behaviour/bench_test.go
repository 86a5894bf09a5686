package behaviour_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/internal/behaviour/redistest"
	"github.com/redis/go-redis/v9"
)

func benchServers(b *testing.B, fn func(b *testing.B, client *redis.Client, sent *atomic.Int64)) {
	b.Run("miniredis", func(b *testing.B) {
		m := redistest.Miniredis(b)
		sent := new(atomic.Int64)
		c := redis.NewClient(&redis.Options{Addr: m.Addr()})
		defer c.Close()
		c.AddHook(countHook{sent})
		fn(b, c, sent)
	})
	b.Run("redis-server", func(b *testing.B) {
		srv := redistest.Start(b)
		sent := new(atomic.Int64)
		c := srv.Client(b, nil)
		c.AddHook(countHook{sent})
		fn(b, c, sent)
	})
}

func benchCycle(b *testing.B, client *redis.Client, sent *atomic.Int64, opts ...fix.Option) {
	ctx := context.Background()
	// Learn the server's release path and load the scripts outside the loop.
	if l, err := fix.Obtain(ctx, client, "bench", time.Minute, opts...); err == nil {
		l.Release(ctx)
	}
	before := sent.Load()
	for b.Loop() {
		l, err := fix.Obtain(ctx, client, "bench", time.Minute, opts...)
		if err != nil {
			b.Fatal(err)
		}
		if err := l.Release(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(sent.Load()-before)/float64(b.N), "cmds/op")
}

func BenchmarkObtainRelease(b *testing.B) {
	benchServers(b, func(b *testing.B, c *redis.Client, sent *atomic.Int64) {
		benchCycle(b, c, sent)
	})
}

func BenchmarkObtainReleaseFenced(b *testing.B) {
	benchServers(b, func(b *testing.B, c *redis.Client, sent *atomic.Int64) {
		benchCycle(b, c, sent, fix.WithFencing())
	})
}

func BenchmarkObtainReleaseWaiting(b *testing.B) {
	benchServers(b, func(b *testing.B, c *redis.Client, sent *atomic.Int64) {
		benchCycle(b, c, sent, fix.WithMaxWait(time.Second))
	})
}

// BenchmarkFunctionRelease is the cycle the linter's fixes produce from
// hand-rolled code: SET NX PX, then fix.Release instead of DEL.
func BenchmarkFunctionRelease(b *testing.B) {
	benchServers(b, func(b *testing.B, c *redis.Client, sent *atomic.Int64) {
		ctx := context.Background()
		const token = "0123456789abcdef0123"
		c.SetArgs(ctx, "bench", token, redis.SetArgs{Mode: "NX", TTL: time.Minute})
		fix.Release(ctx, c, "bench", token)
		before := sent.Load()
		for b.Loop() {
			if c.SetArgs(ctx, "bench", token, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Val() != "OK" {
				b.Fatal("not acquired")
			}
			if err := fix.Release(ctx, c, "bench", token); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(sent.Load()-before)/float64(b.N), "cmds/op")
	})
}

// BenchmarkObtainReleaseContextTimeout is BenchmarkObtainRelease on a
// client with ContextTimeoutEnabled, which the library calls directly: the
// difference is what bounding the release on a goroutine costs a default
// client.
func BenchmarkObtainReleaseContextTimeout(b *testing.B) {
	srv := redistest.Start(b)
	sent := new(atomic.Int64)
	c := srv.Client(b, &redis.Options{ContextTimeoutEnabled: true})
	c.AddHook(countHook{sent})
	benchCycle(b, c, sent)
}

// BenchmarkObtainReleaseContextTimeoutFenced is the fenced cycle on a
// client with ContextTimeoutEnabled, the configuration lockbench compares
// with its hand-written fenced floor.
func BenchmarkObtainReleaseContextTimeoutFenced(b *testing.B) {
	srv := redistest.Start(b)
	sent := new(atomic.Int64)
	c := srv.Client(b, &redis.Options{ContextTimeoutEnabled: true})
	c.AddHook(countHook{sent})
	benchCycle(b, c, sent, fix.WithFencing())
}
