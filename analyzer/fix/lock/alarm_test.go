package lock

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestAlarmsFireInOrderAtTheirTime(t *testing.T) {
	start := time.Now()
	var mu sync.Mutex
	var fired []int
	var at []time.Duration
	done := make(chan struct{}, 3)
	// 100 ms apart, with up to 75 ms of lateness allowed: a loaded
	// machine runs a timer's callback late, while an alarm fired at a
	// neighbour's time is still caught.
	for i, d := range []time.Duration{300, 100, 200} {
		setAlarm(d*time.Millisecond, func() {
			mu.Lock()
			fired = append(fired, i)
			at = append(at, time.Since(start))
			mu.Unlock()
			done <- struct{}{}
		})
	}
	for range 3 {
		<-done
	}
	if fired[0] != 1 || fired[1] != 2 || fired[2] != 0 {
		t.Errorf("fired in order %v, want 1 2 0", fired)
	}
	for i, want := range []time.Duration{100, 200, 300} {
		if d := at[i] - want*time.Millisecond; d < 0 || d > 75*time.Millisecond {
			t.Errorf("alarm %d fired at %s, want %d ms", fired[i], at[i], want)
		}
	}
}

// TestLaterAlarmLeavesTimerAlone pins down why alarms exist: an alarm set
// later than the armed time re-arms nothing, and stopping alarms does not
// either.
func TestLaterAlarmLeavesTimerAlone(t *testing.T) {
	first := setAlarm(time.Hour, func() {})
	defer first.stop()
	alarms.mu.Lock()
	armed := alarms.armed
	alarms.mu.Unlock()
	for range 100 {
		a := setAlarm(2*time.Hour, func() { t.Error("fired") })
		if !a.stop() {
			t.Fatal("stop of a pending alarm reported false")
		}
		if a.stop() {
			t.Fatal("second stop reported true")
		}
	}
	alarms.mu.Lock()
	defer alarms.mu.Unlock()
	if !alarms.armed.Equal(armed) {
		t.Errorf("timer re-armed from %s to %s", armed, alarms.armed)
	}
}

func TestStoppedAndResetAlarms(t *testing.T) {
	fired := make(chan string, 3)
	stopped := setAlarm(10*time.Millisecond, func() { fired <- "stopped" })
	moved := setAlarm(10*time.Millisecond, func() { fired <- "moved" })
	stopped.stop()
	start := time.Now()
	if !moved.reset(50 * time.Millisecond) {
		t.Error("reset of a pending alarm reported false")
	}
	if got := <-fired; got != "moved" {
		t.Fatalf("%s alarm fired", got)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("reset alarm fired after %s, want 50 ms", d)
	}
	if moved.reset(10 * time.Millisecond) {
		t.Error("reset of a fired alarm reported true")
	}
	if got := <-fired; got != "moved" {
		t.Fatalf("%s alarm fired", got)
	}
	select {
	case got := <-fired:
		t.Errorf("%s alarm fired again", got)
	case <-time.After(30 * time.Millisecond):
	}
}

func TestBoundContext(t *testing.T) {
	ctx := withBound(context.Background(), 30*time.Millisecond)
	defer ctx.stop()
	if d, ok := ctx.Deadline(); !ok || time.Until(d) > 30*time.Millisecond {
		t.Errorf("deadline %s, %t", d, ok)
	}
	child, cancelChild := context.WithCancel(ctx)
	defer cancelChild()
	select {
	case <-child.Done():
	case <-time.After(time.Second):
		t.Fatal("child not done after the bound")
	}
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) || !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		t.Errorf("err %v, cause %v; want DeadlineExceeded", ctx.Err(), context.Cause(ctx))
	}

	ctx = withBound(context.Background(), time.Hour)
	ctx.stop()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("cancelled bound: err %v", ctx.Err())
	}

	parent, cancelParent := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancelParent()
	ctx = withBound(parent, time.Hour)
	defer ctx.stop()
	if d, _ := ctx.Deadline(); time.Until(d) > 10*time.Millisecond {
		t.Errorf("bound later than its parent's deadline: %s", time.Until(d))
	}
	<-ctx.Done()
}

// A bound over a parent that cannot be cancelled keeps its own Done
// channel and its children's functions: they run when it ends, unless
// stopped, and one registered after it ended runs at once.
func TestBoundContextAlone(t *testing.T) {
	ctx := withBound(context.WithValue(context.Background(), ctxKey{}, "v"), time.Hour)
	if ctx.cancel != nil {
		t.Fatal("a bound over an uncancellable parent made a cancel context")
	}
	if ctx.Value(ctxKey{}) != "v" {
		t.Error("the parent's value is lost")
	}
	child, cancelChild := context.WithCancel(ctx)
	defer cancelChild()
	stopped := context.AfterFunc(ctx, func() { t.Error("a stopped function ran") })
	ran := make(chan struct{})
	context.AfterFunc(ctx, func() { close(ran) })
	if !stopped() || stopped() {
		t.Error("stop reported that the function had run, or stopped it twice")
	}
	if ctx.Err() != nil || child.Err() != nil {
		t.Fatalf("ended early: %v, %v", ctx.Err(), child.Err())
	}
	ctx.stop()
	ctx.stop()
	select {
	case <-child.Done():
	case <-time.After(time.Second):
		t.Fatal("child not done after stop")
	}
	<-ran
	if !errors.Is(ctx.Err(), context.Canceled) || !errors.Is(context.Cause(ctx), context.Canceled) || !errors.Is(child.Err(), context.Canceled) {
		t.Errorf("err %v, cause %v, child %v; want Canceled", ctx.Err(), context.Cause(ctx), child.Err())
	}
	late := make(chan struct{})
	context.AfterFunc(ctx, func() { close(late) })
	<-late
	select {
	case <-ctx.Done():
	default:
		t.Error("Done not closed after stop")
	}
}

type ctxKey struct{}
