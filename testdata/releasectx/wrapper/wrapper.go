package wrapper

import (
	"context"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"
)

// Mutex is the service's own lock: Unlock sends the release under the
// context it is given.
type Mutex struct {
	rdb   *redis.Client
	key   string
	token string
}

func (m *Mutex) Lock(ctx context.Context) bool {
	return m.rdb.SetNX(ctx, m.key, m.token, time.Minute).Val()
}

func (m *Mutex) Unlock(ctx context.Context) error { // want Unlock:"releases under parameter 0"
	return releaseScript.Run(ctx, m.rdb, []string{m.key}, m.token).Err()
}

var releaseScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

// SafeMutex releases under a context of its own.
type SafeMutex struct{ Mutex }

func (m *SafeMutex) Unlock(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	return releaseScript.Run(ctx, m.rdb, []string{m.key}, m.token).Err()
}

func handler(m *Mutex) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !m.Lock(r.Context()) {
			return
		}
		defer m.Unlock(r.Context()) // want "deferred `m.Unlock`: `r.Context\\(\\)` is the request's"
	}
}

// Near miss: the wrapper that detaches the release itself.
func safeHandler(m *SafeMutex) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !m.Lock(r.Context()) {
			return
		}
		defer m.Unlock(r.Context())
	}
}
