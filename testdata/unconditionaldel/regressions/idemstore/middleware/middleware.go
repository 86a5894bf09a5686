// Package middleware reserves an Idempotency-Key through the store, runs
// the handler, then commits the response over the reservation or
// releases it (RedeArmy's internal/middleware): the commit is the
// record's next state, not a lock's renewal, and stays silent.
package middleware

import (
	"context"
	"net/http"
	"time"

	"locklint.test/unconditionaldel/regressions/idemstore/idempotency"
)

type captureWriter struct {
	http.ResponseWriter
	status int
	body   []byte
}

func Idempotent(store idempotency.Store, ttl time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := "idem:" + r.Header.Get("Idempotency-Key")
		entry, found, err := store.Load(r.Context(), key)
		if err != nil {
			next.ServeHTTP(w, r)
			return
		}
		if found {
			if entry.State == idempotency.Committed {
				w.WriteHeader(entry.Status)
				_, _ = w.Write(entry.Body)
				return
			}
			http.Error(w, "in progress", http.StatusConflict)
			return
		}
		ok, err := store.Reserve(r.Context(), key, ttl)
		if err != nil || !ok {
			http.Error(w, "in progress", http.StatusConflict)
			return
		}
		cw := &captureWriter{ResponseWriter: w}
		next.ServeHTTP(cw, r)
		commitOrRelease(r.Context(), store, key, ttl, cw)
	})
}

// Silent: the commit writes the record's next state.
func commitOrRelease(ctx context.Context, store idempotency.Store, key string, ttl time.Duration, cw *captureWriter) {
	if cw.status >= 200 && cw.status < 300 {
		_ = store.Commit(ctx, key, idempotency.Entry{State: idempotency.Committed, Status: cw.status, Body: cw.body}, ttl)
		return
	}
	_ = store.Release(ctx, key)
}
