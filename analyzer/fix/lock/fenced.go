package lock

import (
	"fmt"
	"sync"
)

// FencedResource is an in-memory value guarded by fence numbers: it accepts
// a write only with a fence greater than the last accepted one. It is the
// check a downstream store must make; the lock alone cannot stop a paused
// former owner from writing. In SQL the same check is a predicate on the
// row's last fence, evaluated atomically with the write:
//
//	UPDATE feeds SET body = $3, fence = $1 WHERE id = $2 AND fence < $1
//
// and zero rows affected means the write was stale. The strict "<" accepts
// one write per fence; a critical section that writes several times should
// use "<=" (and knows that equal fences cannot be told apart).
//
// The zero value is ready to use and safe for concurrent use.
type FencedResource[T any] struct {
	mu    sync.Mutex
	fence int64
	value T
}

// Write stores v if fence is greater than the last accepted fence and
// returns an error matching ErrStaleFence otherwise.
func (r *FencedResource[T]) Write(fence int64, v T) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if fence <= r.fence {
		return fmt.Errorf("%w: fence %d, last accepted %d", ErrStaleFence, fence, r.fence)
	}
	r.fence, r.value = fence, v
	return nil
}

// Load returns the last accepted fence and value.
func (r *FencedResource[T]) Load() (fence int64, v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fence, r.value
}
