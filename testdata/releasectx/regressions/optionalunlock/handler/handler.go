// Package handler runs tasks on an administrator's request: the
// request's context reaches the release that RunNow defers. The near
// miss detaches the run from the request. (Held through an interface
// declared in a third package that neither imports the other, the call
// is out of reach: what the service's methods defer travels along
// imports only.)
package handler

import (
	"context"
	"net/http"
	"strconv"

	"locklint.test/releasectx/regressions/optionalunlock/service"
)

type Handler struct{ svc *service.Tasks }

func (h *Handler) RunNow(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.FormValue("id"), 10, 64)
	if err := h.svc.RunNow(r.Context(), id); err != nil { // want "`h.svc.RunNow` defers its lock's release \\(service.go:38\\): `r.Context\\(\\)` is the request's"
		http.Error(w, err.Error(), http.StatusConflict)
	}
}

func (h *Handler) RunLocked(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.FormValue("id"), 10, 64)
	_ = h.svc.RunLocked(r.Context(), id) // want "`h.svc.RunLocked` defers its lock's release \\(service.go:47\\)"
}

// Near miss: the run outlives the request's cancellation.
func (h *Handler) RunDetached(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.FormValue("id"), 10, 64)
	_ = h.svc.RunNow(context.WithoutCancel(r.Context()), id)
}
