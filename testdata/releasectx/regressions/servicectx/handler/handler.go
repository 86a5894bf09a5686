// Package handler calls the service's locking methods. A request's
// context, or a timeout made from it or for the call, is what the
// service's deferred release runs under: when the client disconnects or
// the work overruns, the client fails the release without sending it
// and the room, withdrawal or order stays locked until the TTL. The near
// misses pass a context that outlives the call.
package handler

import (
	"context"
	"net/http"
	"time"

	"locklint.test/releasectx/regressions/servicectx/service"
)

type Handler struct {
	svc    *service.Service
	booker service.Booker
	claims *service.Claims
}

func timeoutCtx(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), 10*time.Second)
}

// Must report: the request's context, directly.
func (h *Handler) Book(w http.ResponseWriter, r *http.Request) {
	if err := h.svc.Book(r.Context(), r.FormValue("room")); err != nil { // want "`h.svc.Book` defers its lock's release \\(service.go:36\\): `r.Context\\(\\)` is the request's, cancelled when the client disconnects"
		http.Error(w, err.Error(), http.StatusConflict)
	}
}

// Must report: through the service's interface.
func (h *Handler) BookVia(w http.ResponseWriter, r *http.Request) {
	_ = h.booker.Book(r.Context(), r.FormValue("room")) // want "`h.booker.Book` defers its lock's release \\(service.go:36\\)"
}

// Must report: through the service's coordinator over the lock package.
func (h *Handler) Claim(w http.ResponseWriter, r *http.Request) {
	_ = h.claims.Claim(r.Context(), r.FormValue("id")) // want "`h.claims.Claim` defers its lock's release \\(service.go:131\\)"
}

// Must report: a timeout of the request's, made by a helper.
func (h *Handler) Withdraw(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := timeoutCtx(r)
	defer cancel()
	if err := h.svc.Withdraw(ctx, r.FormValue("id")); err != nil { // want "`h.svc.Withdraw` defers its lock's release \\(service.go:46\\): `ctx` is the request's"
		http.Error(w, err.Error(), http.StatusConflict)
	}
}

// Must report: through the service's helper, a variable away.
func (h *Handler) Settle(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	_ = h.svc.Settle(ctx, r.FormValue("order")) // want "`h.svc.Settle` defers its lock's release \\(service.go:77\\)"
}

// Must report: a timeout the call runs under, with the release after it.
func (h *Handler) Nightly() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return h.svc.Book(ctx, "nightly") // want "`h.svc.Book` defers its lock's release \\(service.go:36\\): `ctx` expires with the work's timeout \\(line 61\\)"
}

// Silent: a context that outlives the call.
func (h *Handler) Job() error { return h.svc.Book(context.Background(), "job") }

// Silent: the request's values without its cancellation.
func (h *Handler) Detached(w http.ResponseWriter, r *http.Request) {
	_ = h.svc.Book(context.WithoutCancel(r.Context()), r.FormValue("room"))
}

// Silent: a cancel the caller runs after the call has released.
func (h *Handler) Cancellable() error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	return h.svc.Book(ctx, "cancellable")
}

// Silent: the service detaches its release, or does not defer it.
func (h *Handler) Refund(w http.ResponseWriter, r *http.Request) {
	_ = h.svc.Refund(r.Context(), r.FormValue("order"))
	_ = h.svc.Cancel(r.Context(), r.FormValue("order"))
}

// Silent: an ordinary function's context parameter.
func (h *Handler) Sweep(ctx context.Context) error { // want Sweep:"defers a release under parameter 0 at service.go:36"
	return h.svc.Book(ctx, "sweep")
}
