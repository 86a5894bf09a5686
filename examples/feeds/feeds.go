// Package feeds rebuilds a feed on request, under a lock held for the
// rebuild and released when the handler returns.
package feeds

import (
	"context"
	"crypto/rand"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locklint/locklint/analyzer/fix"
)

// release deletes the lock only while it still holds this token.
var release = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

// Rebuild holds the feed's lock for the rebuild, and releases it under the
// request's context: when the client has gone away, the release fails at
// once and the feed stays locked until the TTL.
func Rebuild(rdb *redis.Client, rebuild func(context.Context) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		token := rand.Text()
		ok, err := rdb.SetNX(ctx, "lock:feed", token, time.Minute).Result()
		if err != nil || !ok {
			http.Error(w, "busy", http.StatusConflict)
			return
		}
		defer release.Run(ctx, rdb, []string{"lock:feed"}, token) // BUG(releasectx): r.Context() is cancelled when the client disconnects
		if err := rebuild(ctx); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	}
}

// RebuildSafe is the correct version: the lock's Release ignores the
// request's cancellation and bounds itself with a timeout of its own.
func RebuildSafe(rdb *redis.Client, rebuild func(context.Context) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		lock, err := fix.Obtain(ctx, rdb, "lock:feed", time.Minute)
		if err != nil {
			http.Error(w, "busy", http.StatusConflict)
			return
		}
		defer lock.Release(ctx)
		if err := rebuild(ctx); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	}
}
