// Package middleware pins a rate-limit middleware that takes a chat's
// lock through the cache helpers under the request's context, defers the
// release under the same variable, and then rebinds that variable to a
// context.WithValue of it for the handler: the deferred closure reads
// the variable when it runs, a child of the request's context that is
// cancelled with it, so the release is reported. The near miss rebinds
// the variable to context.WithoutCancel of the request's before the
// handler runs: silent.
package middleware

import (
	"context"
	"net/http"
	"time"

	"locklint.test/releasectx/regressions/chatgate/cache"
)

type key struct{}

type Limiter struct{ cache *cache.Cache }

func (l *Limiter) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		locked, err := l.cache.AcquireLock(ctx, 1, 2*time.Minute)
		if err != nil || !locked {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		defer func() {
			_ = l.cache.ReleaseLock(ctx, 1) // want "request"
		}()
		ctx = context.WithValue(ctx, key{}, "payload")
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// Near miss (silent): the variable the release reads is rebound to a
// context the request's end does not cancel.
func (l *Limiter) WrapDetached(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		locked, err := l.cache.AcquireLock(ctx, 2, 2*time.Minute)
		if err != nil || !locked {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		defer func() {
			_ = l.cache.ReleaseLock(ctx, 2)
		}()
		ctx = context.WithoutCancel(ctx)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}
