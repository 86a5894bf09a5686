package lock

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Ops bounded by a deadline run one after another on one kept worker,
// not on a goroutine each, and the worker exits once left idle.
func TestBoundedReusesIdleWorker(t *testing.T) {
	idleWorkerTest.Store(int64(200 * time.Millisecond))
	t.Cleanup(func() { idleWorkerTest.Store(0) })
	waitIdleExit(t, runtime.NumGoroutine())

	wait, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	base := runtime.NumGoroutine()
	ran := map[string]int{}
	for i := range 50 {
		v, err, abandoned := bounded(wait, false, func() (string, error) { return goroutineID(), nil }, nil)
		if err != nil || abandoned {
			t.Fatalf("op %d: %v, %v", i, err, abandoned)
		}
		ran[v]++
		// The worker is back in its select before the next op.
		time.Sleep(time.Millisecond)
	}
	if len(ran) != 1 {
		t.Errorf("50 sequential ops ran on %d goroutines, want one worker", len(ran))
	}
	if n := runtime.NumGoroutine(); n > base+1 {
		t.Errorf("%d goroutines after 50 sequential ops, want at most %d (one worker)", n, base+1)
	}
	waitIdleExit(t, base)
}

// An op still running when its wait ends keeps its worker, which hands
// the outcome to late; the next op gets another worker meanwhile.
func TestBoundedAbandonedOpKeepsWorker(t *testing.T) {
	wait, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	release := make(chan struct{})
	late := make(chan error, 1)
	_, err, abandoned := bounded(wait, false, func() (int, error) {
		<-release
		return 0, errors.New("late")
	}, func(_ int, err error) { late <- err })
	if !abandoned || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("bounded on a stalled op: %v, abandoned %v", err, abandoned)
	}
	other, cancel2 := context.WithTimeout(context.Background(), time.Minute)
	defer cancel2()
	if v, err, _ := bounded(other, false, func() (int, error) { return 7, nil }, nil); v != 7 || err != nil {
		t.Fatalf("next op while the first is stalled: %v, %v", v, err)
	}
	close(release)
	select {
	case err := <-late:
		if err == nil || err.Error() != "late" {
			t.Errorf("late got %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the abandoned op's outcome never reached late")
	}
	deadline := time.Now().Add(5 * time.Second)
	for InFlight() != 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := InFlight(); n != 0 {
		t.Errorf("InFlight() = %d after the late outcome", n)
	}
}

// goroutineID returns the running goroutine's id, from its stack's
// first line ("goroutine 7 [running]:").
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id, _, _ := strings.Cut(strings.TrimPrefix(string(buf), "goroutine "), " ")
	return id
}

// waitIdleExit waits until at most want goroutines run: idle workers
// have exited.
func waitIdleExit(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(idleTime() + 5*time.Second)
	for runtime.NumGoroutine() > want {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines, want %d: an idle worker did not exit", runtime.NumGoroutine(), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
