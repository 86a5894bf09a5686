// Package api passes the request's context to the store: Reserve's two
// deferred releases both run under it once the client has gone, and the
// report names both; Hold's second release is detached, and the report
// names the first alone.
package api

import (
	"net/http"

	"locklint.test/releasectx/regressions/twodeferred/store"
)

type API struct{ st *store.Store }

func (a *API) Reserve(w http.ResponseWriter, r *http.Request) {
	if err := a.st.Reserve(r.Context(), r.FormValue("user"), r.FormValue("seat")); err != nil { // want "`a.st.Reserve` defers its locks' releases \\(store.go:42, store.go:46\\): `r.Context\\(\\)` is the request's, cancelled when the client disconnects, so the locks may stay until their TTL"
		http.Error(w, err.Error(), http.StatusConflict)
	}
}

func (a *API) Hold(w http.ResponseWriter, r *http.Request) {
	if err := a.st.Hold(r.Context(), r.FormValue("user"), r.FormValue("seat")); err != nil { // want "`a.st.Hold` defers its lock's release \\(store.go:55\\): `r.Context\\(\\)` is the request's, cancelled when the client disconnects, so the lock may stay until its TTL"
		http.Error(w, err.Error(), http.StatusConflict)
	}
}
