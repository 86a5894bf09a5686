package testpaired

import (
	"context"
	"testing"
	"time"
)

// A test of the wrappers: set a key if absent, then delete it.
func TestWrappers(t *testing.T) {
	ctx := context.Background()
	if _, err := SetNX(ctx, "k1", "v", time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := Del(ctx, "k1"); err != nil {
		t.Fatal(err)
	}
}
