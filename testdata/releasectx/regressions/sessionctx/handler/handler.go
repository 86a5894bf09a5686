// Package handler runs the wallet lookup in a transaction whose session
// context the driver derives from the request's: the release the service
// defers under it fails once the client goes away. The near miss runs
// the transaction under a context of its own.
package handler

import (
	"context"
	"net/http"

	"locklint.test/releasectx/regressions/sessionctx/session"
	"locklint.test/releasectx/regressions/sessionctx/wallet"
)

type Handler struct {
	sess *session.Session
	svc  *wallet.Service
}

func (h *Handler) Get(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	defer h.sess.EndSession(ctx)
	txFunc := func(sessCtx session.SessionContext) (any, error) {
		return h.svc.GetByAddress(sessCtx, r.URL.Query().Get("address")) // want "`h.svc.GetByAddress` defers its lock's release \\(wallet.go:28\\): `sessCtx` is the request's"
	}
	if _, err := h.sess.WithTransaction(ctx, txFunc); err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
	}
}

// The callback given inline.
func (h *Handler) Claim(w http.ResponseWriter, r *http.Request) {
	_, _ = h.sess.WithTransaction(r.Context(), func(sessCtx session.SessionContext) (any, error) {
		return h.svc.GetByAddress(sessCtx, "faucet") // want "`h.svc.GetByAddress` defers its lock's release \\(wallet.go:28\\): `sessCtx` is the request's"
	})
}

// Near miss: a nightly job's transaction, under a context that outlives
// any request.
func (h *Handler) Nightly(address string) {
	txFunc := func(sessCtx session.SessionContext) (any, error) {
		return h.svc.GetByAddress(sessCtx, address)
	}
	_, _ = h.sess.WithTransaction(context.Background(), txFunc)
}
