package callermarker

import (
	"context"
	"testing"
)

// A test calls the helper with a fixed id; it contends with no run.
func TestDispatch(t *testing.T) {
	var s Scheduler
	_ = s.dispatch(context.Background(), "exec-001")
}
