// Package api pins a release reached through two narrow interfaces, each
// declared by the package that holds it and implemented by a type of a
// package it imports: the handlers hold state.Manager as a stateManager,
// and the manager holds redisx.Client as a redisOps. A report's request
// context is what the manager's deferred release runs under: a client
// that disconnects leaves the channel locked until the TTL. The near miss
// passes a context that outlives the request.
package api

import (
	"context"
	"net/http"
	"strconv"

	"locklint.test/releasectx/regressions/narrowiface/state"
)

type stateManager interface {
	Report(ctx context.Context, cid int) error // want Report:"defers a release under parameter 0 at state.go:39"
}

type Router struct{ m stateManager }

func NewRouter(m *state.Manager) *Router { return &Router{m: m} }

// Must report.
func (rt *Router) HandleReport(w http.ResponseWriter, r *http.Request) {
	cid, _ := strconv.Atoi(r.FormValue("cid"))
	if err := rt.m.Report(r.Context(), cid); err != nil { // want "`rt.m.Report` defers its lock's release \\(state.go:39\\): `r.Context\\(\\)` is the request's"
		http.Error(w, err.Error(), http.StatusConflict)
	}
}

// Near miss (silent): the release outlives the request.
func (rt *Router) HandleReportDetached(w http.ResponseWriter, r *http.Request) {
	cid, _ := strconv.Atoi(r.FormValue("cid"))
	if err := rt.m.Report(context.WithoutCancel(r.Context()), cid); err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
	}
}
