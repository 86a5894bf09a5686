// Package web pins two acquires whose miss runs the work. A middleware
// tests the lock's reply, but its branch for a lock held elsewhere only
// writes an error and falls out of the enclosing if into next: the
// handler runs beside the holder. A cron job's test is inverted: it
// returns when it got the lock and runs the job, and deletes the key,
// when another run holds it. The near misses return on the miss, and
// return on the miss with the test the right way round.
package web

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"

	"locklint.test/uncheckedacquire/regressions/missruns/rlock"
)

// Must report.
func Serialize(rdb *redis.Client, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if uid := r.Header.Get("X-User"); uid != "" {
			l := rlock.New(rdb, fmt.Sprintf("%s:%s", uid, r.Method))
			b, err := l.Lock(r.Context()) // want "`b` from `l.Lock` is tested, but the branch for a lock held elsewhere \\(line 34\\) falls through into the work"
			defer func(l *rlock.Lock, ctx context.Context) {
				_ = l.Unlock(ctx)
			}(l, context.WithoutCancel(r.Context()))
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			if !b {
				http.Error(w, "too fast", http.StatusTooManyRequests)
			}
		}
		next.ServeHTTP(w, r)
	})
}

// Near miss (silent).
func SerializeChecked(rdb *redis.Client, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if uid := r.Header.Get("X-User"); uid != "" {
			l := rlock.New(rdb, fmt.Sprintf("%s:%s", uid, r.Method))
			b, err := l.Lock(r.Context())
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			if !b {
				http.Error(w, "too fast", http.StatusTooManyRequests)
				return
			}
			defer l.Unlock(context.WithoutCancel(r.Context()))
		}
		next.ServeHTTP(w, r)
	})
}

type Job struct {
	Name string
	Run  func() error
}

// Must report: the job runs when the lock is another run's.
func (j *Job) Inverted() {
	key := "app.cronjob." + j.Name
	if rlock.TryLock(key, time.Hour) { // want "inverted"
		return
	}
	defer rlock.UnlockNow(key)
	_ = j.Run()
}

// Near miss (silent).
func (j *Job) Guarded() {
	key := "app.cronjob." + j.Name
	if !rlock.TryLock(key, time.Hour) {
		return
	}
	defer rlock.UnlockNow(key)
	_ = j.Run()
}
