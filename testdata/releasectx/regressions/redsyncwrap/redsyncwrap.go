// Package redsyncwrap pins the held-out miss of a release through redsync
// behind the service's own interface, under a request's context
// (sangianpatrick/go-redis-distlock-demo's shape): Mutex is the service's
// interface, its one implementation passes the context to redsync's
// UnlockContext, and the handler defers Unlock(ctx) with ctx :=
// r.Context(). A client that disconnects during the work cancels the
// release, and the lock stays until its TTL. The near miss releases
// under context.WithoutCancel.
package redsyncwrap

import (
	"context"
	"net/http"
	"time"

	"github.com/go-redis/redis/v8"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v8"
)

// Mutex is the service's own lock interface.
type Mutex interface {
	Lock(ctx context.Context) error
	Unlock(ctx context.Context) error // want Unlock:"releases under parameter 0"
}

type redsyncMutex struct{ m *redsync.Mutex }

func NewMutex(rdb *redis.Client, name string) Mutex {
	rs := redsync.New(goredis.NewPool(rdb))
	return &redsyncMutex{m: rs.NewMutex(name, redsync.WithExpiry(30*time.Second))}
}

func (r *redsyncMutex) Lock(ctx context.Context) error { return r.m.LockContext(ctx) }

func (r *redsyncMutex) Unlock(ctx context.Context) error { // want Unlock:"releases under parameter 0"
	_, err := r.m.UnlockContext(ctx)
	return err
}

type Handler struct{ mutex Mutex }

// Must report: the deferred release runs under the request's context.
func (h *Handler) Transfer(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if err := h.mutex.Lock(ctx); err != nil {
		http.Error(w, "busy", http.StatusConflict)
		return
	}
	defer h.mutex.Unlock(ctx) // want "deferred `h\\.mutex\\.Unlock`: `ctx` is the request's"
	time.Sleep(500 * time.Millisecond)
	w.WriteHeader(http.StatusNoContent)
}

// Near miss (silent): the release keeps the values and drops the cancellation.
func (h *Handler) Refund(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if err := h.mutex.Lock(ctx); err != nil {
		http.Error(w, "busy", http.StatusConflict)
		return
	}
	defer h.mutex.Unlock(context.WithoutCancel(ctx))
	time.Sleep(500 * time.Millisecond)
	w.WriteHeader(http.StatusNoContent)
}
