package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/locklint/locklint/analyzer/fix"
	"github.com/redis/go-redis/v9"
)

func TestStaleWriterIsFencedOff(t *testing.T) {
	m := miniredis.RunT(t)
	t.Cleanup(followClock(m))
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	var log strings.Builder
	out, err := run(ctx, rdb, &log)
	t.Log("\n" + log.String())
	if err != nil {
		t.Fatal(err)
	}
	if out.fenceB <= out.fenceA {
		t.Errorf("fences A=%d B=%d, want B > A", out.fenceA, out.fenceB)
	}
	if !errors.Is(out.lostA, fix.ErrLost) {
		t.Errorf("A's context cause = %v, want ErrLost", out.lostA)
	}
	if out.writeB != nil || !errors.Is(out.writeA, fix.ErrStaleFence) {
		t.Errorf("writes: B %v, A %v; want B accepted, A stale", out.writeB, out.writeA)
	}
	if !errors.Is(out.releaseA, fix.ErrNotHeld) || !out.bStillOwns || out.releaseB != nil {
		t.Errorf("release A %v, B still owns %t, release B %v", out.releaseA, out.bStillOwns, out.releaseB)
	}
	if out.finalValue != "worker-B" || out.finalFence != out.fenceB {
		t.Errorf("resource = %q@%d", out.finalValue, out.finalFence)
	}
	if m.Exists(lockKey) {
		t.Errorf("lock key left behind")
	}
}
