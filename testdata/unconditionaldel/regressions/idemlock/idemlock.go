// Package idemlock pins idempotency middlewares, which keep two kinds of
// keys under one request's Idempotency-Key. The in-progress lock
// (idempotency:lock:<key>, or <record>:lock) is taken with SETNX for a
// lease shorter than a slow request and deleted on every path when the
// handler returns: duplicates of the request wait on it, and a handler
// that outlasts its lease deletes the lock a retry took after the lease
// lapsed, so a third copy runs beside the retry. Its plain DEL is a
// lock's release without an owner check. The records are not locks: a
// "pending" status written with SETNX, overwritten with the response on
// success and deleted only when the handler failed; a report marker that
// helpers named for idempotency take and undo; a lock-named key taken
// for a day, which cannot lapse while its request runs.
package idemlock

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"
)

type Middleware struct {
	rdb *redis.Client
}

// Must report: the in-progress lock, released under a context that
// outlives the request.
func (m *Middleware) Purchase(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		idempotencyKey := r.Header.Get("Idempotency-Key")
		if idempotencyKey == "" {
			next.ServeHTTP(w, r)
			return
		}
		ctx := r.Context()
		lockKey := "idempotency:lock:" + idempotencyKey
		ok, err := m.rdb.SetNX(ctx, lockKey, "1", 30*time.Second).Result()
		if err != nil || !ok {
			w.WriteHeader(http.StatusConflict)
			return
		}
		defer m.rdb.Del(context.WithoutCancel(ctx), lockKey) // want "DEL of lock key `lockKey` without an owner check"
		next.ServeHTTP(w, r)
	})
}

// Must report: the lock named after the record it guards.
func (m *Middleware) Ride(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		idempotencyKey := r.Header.Get("Idempotency-Key")
		cacheKey := "idempotency:" + idempotencyKey
		if cached, err := m.rdb.Get(r.Context(), cacheKey).Bytes(); err == nil {
			w.Write(cached)
			return
		}
		lockKey := cacheKey + ":lock"
		locked, err := m.rdb.SetNX(r.Context(), lockKey, "1", 30*time.Second).Result()
		if err != nil || !locked {
			w.WriteHeader(http.StatusConflict)
			return
		}
		defer m.rdb.Del(context.WithoutCancel(r.Context()), lockKey) // want "DEL of lock key `lockKey` without an owner check"
		next.ServeHTTP(w, r)
		m.rdb.Set(r.Context(), cacheKey, "done", 24*time.Hour)
	})
}

type recorder struct {
	http.ResponseWriter
	status int
}

func (rw *recorder) WriteHeader(code int) {
	rw.status = code
	rw.ResponseWriter.WriteHeader(code)
}

// Near miss (silent): the pending record, its key built in either branch
// from the request's key. Its SETNX marks the request, the response
// overwrites it and a failure deletes it so that a retry gets in.
func (m *Middleware) Pending(next http.Handler, userID int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		idempotencyKey := r.Header.Get("Idempotency-Key")
		var cacheKey string
		if userID != 0 {
			cacheKey = fmt.Sprintf("idempotent:%d:%s", userID, idempotencyKey)
		} else {
			cacheKey = fmt.Sprintf("idempotent:%s:%s", r.RemoteAddr, idempotencyKey)
		}
		ctx := r.Context()
		if v, err := m.rdb.Get(ctx, cacheKey).Result(); err == nil && v != "" {
			w.Write([]byte(v))
			return
		}
		if _, err := m.rdb.SetNX(ctx, cacheKey, "pending", 10*time.Minute).Result(); err != nil {
			return
		}
		rw := &recorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rw, r)
		if rw.status < 400 {
			m.rdb.Set(ctx, cacheKey, "done", 10*time.Minute)
		} else {
			m.rdb.Del(ctx, cacheKey)
		}
	})
}

// Near miss (silent): a report's marker, taken and undone by helpers
// named for idempotency.
func IdemKey(key string) string { return "keypool:idem:" + key }

func (m *Middleware) IdemSet(ctx context.Context, key string) (bool, error) {
	return m.rdb.SetNX(ctx, IdemKey(key), 1, 10*time.Minute).Result()
}

func (m *Middleware) IdemDel(ctx context.Context, key string) error {
	return m.rdb.Del(ctx, IdemKey(key)).Err()
}

// Near miss (silent): a lock-named key of one request, held for a day:
// its lease cannot lapse while the request runs, so its DEL removes
// nobody else's.
func (m *Middleware) Once(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		idempotencyKey := r.Header.Get("Idempotency-Key")
		lockKey := "idempotency:lock:" + idempotencyKey
		ok, err := m.rdb.SetNX(r.Context(), lockKey, "1", 24*time.Hour).Result()
		if err != nil || !ok {
			w.WriteHeader(http.StatusConflict)
			return
		}
		defer m.rdb.Del(context.WithoutCancel(r.Context()), lockKey)
		next.ServeHTTP(w, r)
	})
}
