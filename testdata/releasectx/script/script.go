package script

import (
	"context"
	"net/http"

	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

// A compare-and-delete script run deferred under the request's context.
func handler(rdb *redis.Client, token string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		defer release.Run(ctx, rdb, []string{"lock:feed"}, token)                                                                                         // want "deferred EVAL: `ctx` is the request's"
		defer rdb.Eval(ctx, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`, []string{"lock:feed"}, token) // want "deferred EVAL: `ctx` is the request's"
	}
}

// Near miss: a script that deletes nothing is no release.
var touch = redis.NewScript(`return redis.call("PEXPIRE", KEYS[1], ARGV[1])`)

func renew(rdb *redis.Client) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		defer touch.Run(r.Context(), rdb, []string{"lock:feed"}, 30000)
	}
}

// A variable the deferred call reads changes after the defer: no fix
// (a closure would read it at exit).
func changing(rdb *redis.Client, token string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key := "lock:a"
		defer release.Run(r.Context(), rdb, []string{key}, token) // want "deferred EVAL"
		key = "lock:b"
		_ = key
	}
}

func unused(ctx context.Context) {}
