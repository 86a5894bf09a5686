// Package api pins the held-out miss of a release behind a lock port
// with an in-memory fallback beside its Redis implementation
// (wallet-management's address rotation): the Redis locker releases
// under the handler's request context, so a client that disconnects
// mid-rotation leaves the wallet locked until the TTL. The near misses
// pass a context that outlives the request, or go through a port whose
// two implementations both send commands.
package api

import (
	"context"
	"net/http"

	"locklint.test/releasectx/regressions/memfallback/wallet"
)

type Handler struct{ p *wallet.Policy }

// Must report.
func (h *Handler) Derive(w http.ResponseWriter, r *http.Request) {
	if err := h.p.Rotate(r.Context(), r.PathValue("id")); err != nil { // want "`h.p.Rotate` defers its lock's release \\(wallet.go:27\\): `r.Context\\(\\)` is the request's"
		http.Error(w, err.Error(), http.StatusConflict)
	}
}

// Near miss (silent): the release outlives the request.
func (h *Handler) DeriveDetached(w http.ResponseWriter, r *http.Request) {
	if err := h.p.Rotate(context.WithoutCancel(r.Context()), r.PathValue("id")); err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
	}
}

// Near miss (silent): either implementation of the store may release.
func (h *Handler) DeriveStore(w http.ResponseWriter, r *http.Request) {
	if err := h.p.RotateStore(r.Context(), r.PathValue("id")); err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
	}
}
