// Package idemfingerprint pins an idempotency middleware whose marker is
// keyed by a fingerprint of the client's Idempotency-Key header: the
// header's value is read into a variable named for it, hashed with the
// path by a helper, and the marker is taken with SETNX, "1" and a day's
// TTL, then deleted after the handler. Only a duplicate of the same
// request contends for it, and the day-long lease cannot lapse within a
// request. The twin keys its lock by the route alone: every request to
// the route contends, and a slow one deletes the next one's lock.
package idemfingerprint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"
)

func fingerprint(r *http.Request, key string) string {
	sum := sha256.Sum256([]byte(key + "|" + r.URL.Path))
	return hex.EncodeToString(sum[:])
}

// Near miss (silent): one request's marker.
func Idempotent(rdb *redis.Client, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		idempotencyKey := r.Header.Get("Idempotency-Key")
		if idempotencyKey == "" {
			next.ServeHTTP(w, r)
			return
		}
		lockKey := "idem:lock:" + fingerprint(r, idempotencyKey)
		ok, err := rdb.SetNX(r.Context(), lockKey, "1", 24*time.Hour).Result()
		if err != nil || !ok {
			w.WriteHeader(http.StatusConflict)
			return
		}
		next.ServeHTTP(w, r)
		rdb.Del(r.Context(), lockKey)
	})
}

// Must report: one lock for the whole route.
func Serialized(rdb *redis.Client, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route := r.URL.Path
		lockKey := "route:lock:" + route
		ok, err := rdb.SetNX(context.Background(), lockKey, "1", 10*time.Second).Result()
		if err != nil || !ok {
			w.WriteHeader(http.StatusConflict)
			return
		}
		next.ServeHTTP(w, r)
		rdb.Del(context.Background(), lockKey) // want "DEL of lock key `lockKey` without an owner check"
	})
}
