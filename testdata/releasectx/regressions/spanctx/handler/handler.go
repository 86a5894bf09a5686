// Package handler calls the service under a request's context: the
// service's release, deferred under a span's context derived from it,
// fails once the client disconnects. The near misses call the services
// that detach or replace the context.
package handler

import (
	"net/http"

	"locklint.test/releasectx/regressions/spanctx/service"
)

type Handler struct{ svc *service.Service }

func (h *Handler) Bid(w http.ResponseWriter, r *http.Request) {
	_ = h.svc.PlaceBid(r.Context(), r.FormValue("auction")) // want "`h.svc.PlaceBid` defers its lock's release \\(service.go:36\\): `r.Context\\(\\)` is the request's"
}

func (h *Handler) Close(w http.ResponseWriter, r *http.Request) {
	_ = h.svc.CloseAuction(r.Context(), r.FormValue("auction"))
	_ = h.svc.Sweep(r.Context(), r.FormValue("auction"))
}
