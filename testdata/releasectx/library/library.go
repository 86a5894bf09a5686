package library

import (
	"context"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locklint/locklint/analyzer/fix"
)

// Near miss: the lock library ignores the caller's cancellation and
// bounds the release itself.
func handler(rdb *redis.Client) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		l, err := fix.Obtain(ctx, rdb, "lock:feed", time.Minute)
		if err != nil {
			return
		}
		defer l.Release(ctx)
		defer fix.Release(ctx, rdb, "lock:feed", "tok")
		_ = fix.Do(ctx, rdb, "lock:feed", time.Minute, func(ctx context.Context) error { return nil })
	}
}
