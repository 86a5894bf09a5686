package redigo

import (
	"net/http"

	"github.com/gomodule/redigo/redis"
)

// redigo's DoContext takes the request's context.
func handler(pool *redis.Pool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		conn := pool.Get()
		defer conn.Close()
		if _, err := redis.String(redis.DoContext(conn, r.Context(), "SET", "lock:feed", "tok", "NX", "PX", 30000)); err != nil {
			return
		}
		defer redis.DoContext(conn, r.Context(), "DEL", "lock:feed") // want "deferred DEL: `r.Context\\(\\)` is the request's"
	}
}

// Near miss: Do takes no context; nothing cancels the release.
func plainDo(pool *redis.Pool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		conn := pool.Get()
		defer conn.Close()
		defer conn.Do("DEL", "lock:feed")
	}
}
