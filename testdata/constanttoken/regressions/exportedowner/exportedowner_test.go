package exportedowner

import "testing"

// A test's fixed owner is no finding of the code under test.
func TestAcquire(t *testing.T) {
	l := &Locker{}
	_ = func() { l.Acquire(t.Context(), "x", "test-owner") }
}
