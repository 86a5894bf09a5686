package request

import (
	"context"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"
)

type server struct{ rdb *redis.Client }

// The release deferred under the request's context.
func (s *server) rebuild(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if !s.rdb.SetNX(ctx, "lock:feed", "tok", time.Minute).Val() {
		return
	}
	defer s.rdb.Del(ctx, "lock:feed") // want "deferred DEL: `ctx` is the request's \\(`r.Context\\(\\)`\\), cancelled when the client disconnects, so the lock may stay until its TTL; release under `context.WithoutCancel` with a timeout"
	work(ctx)
}

// Near miss: the release's context drops the request's cancellation.
func (s *server) rebuildDetached(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if !s.rdb.SetNX(ctx, "lock:feed", "tok", time.Minute).Val() {
		return
	}
	defer s.rdb.Del(context.WithoutCancel(ctx), "lock:feed")
	work(ctx)
}

// The request's context passed as it is.
func (s *server) inline(w http.ResponseWriter, r *http.Request) {
	defer s.rdb.Del(r.Context(), "lock:inline") // want "deferred DEL: `r.Context\\(\\)` is the request's"
	work(r.Context())
}

// Near miss: a fresh timeout from Background, made in the deferred
// function for the release.
func (s *server) ownTimeout(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	defer func() {
		rctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		s.rdb.Del(rctx, "lock:feed")
	}()
	work(ctx)
}

// A framework's context whose request is a *http.Request (gin's
// c.Request.Context()), in a deferred closure that checks the error.
type ginContext struct{ Request *http.Request }

func (s *server) framework(c *ginContext) {
	ctx := c.Request.Context()
	defer func() {
		if err := s.rdb.Del(ctx, "lock:gin").Err(); err != nil { // want "deferred DEL: `ctx` is the request's \\(`c.Request.Context\\(\\)`\\)"
			println(err.Error())
		}
	}()
	work(ctx)
}

// A value added to the request's context ends with it.
type key struct{}

func (s *server) withValue(w http.ResponseWriter, r *http.Request) {
	ctx := context.WithValue(r.Context(), key{}, "v")
	defer s.rdb.Unlink(ctx, "lock:value") // want "deferred UNLINK: `ctx` is the request's"
	work(ctx)
}

// Near miss: not deferred; the release runs right after the work.
func (s *server) straightLine(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	work(ctx)
	s.rdb.Del(ctx, "lock:feed")
}

// Near miss: a cache key is no lock.
func (s *server) cache(w http.ResponseWriter, r *http.Request) {
	defer s.rdb.Del(r.Context(), "cache:feed")
}

// Near miss: the context is reassigned.
func (s *server) reassigned(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	ctx = context.Background()
	defer s.rdb.Del(ctx, "lock:feed")
}

func work(ctx context.Context) {}
