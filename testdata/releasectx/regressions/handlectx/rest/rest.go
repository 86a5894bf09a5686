// Package rest calls the sessions store with its requests' contexts: a
// client that disconnects leaves the user's sessions locked until the
// lease ends, because the deferred release of the handle fails without
// being sent.
package rest

import (
	"context"
	"net/http"

	"locklint.test/releasectx/regressions/handlectx/data"
)

type Service struct{ storage *data.Storage }

func (s *Service) start(w http.ResponseWriter, r *http.Request) {
	if err := s.storage.StartNewSession(r.Context(), r.FormValue("user")); err != nil { // want "`s.storage.StartNewSession` defers its lock's release \\(data.go:55\\): `r.Context\\(\\)` is the request's"
		http.Error(w, err.Error(), http.StatusConflict)
	}
}

func (s *Service) end(w http.ResponseWriter, r *http.Request) {
	_ = s.storage.EndSession(r.Context(), r.FormValue("user")) // want "`s.storage.EndSession` defers its lock's release \\(data.go:68\\)"
}

// Near miss: a context that outlives the request.
func (s *Service) endDetached(w http.ResponseWriter, r *http.Request) {
	_ = s.storage.EndSession(context.WithoutCancel(r.Context()), r.FormValue("user"))
}
