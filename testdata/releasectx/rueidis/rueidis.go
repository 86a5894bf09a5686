package rueidis

import (
	"context"
	"net/http"

	"github.com/redis/rueidis"
)

// rueidis's Do takes the request's context; the command is built apart.
func handler(client rueidis.Client) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if err := client.Do(ctx, client.B().Set().Key("lock:feed").Value("tok").Nx().Ex(30).Build()).Error(); err != nil {
			return
		}
		defer client.Do(ctx, client.B().Del().Key("lock:feed").Build()) // want "deferred DEL: `ctx` is the request's"
	}
}

// Near miss: the release detached from the request.
func detached(client rueidis.Client) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithoutCancel(r.Context())
		defer client.Do(ctx, client.B().Del().Key("lock:feed").Build())
	}
}
