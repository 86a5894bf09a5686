// Package spreadargs pins a device cache whose fill takes a lock and
// defers its release under the context it is given, with the fields to
// read as a variadic parameter. The handler passes its request's context
// and spreads the requested fields: the context is still the callee's
// first parameter, and the release after a slow fill runs under a
// context the client may have ended: reported. The near miss fills
// under a context of its own.
package spreadargs

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Cache struct{ rdb *redis.Client }

const releaseScript = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func (c *Cache) GetDeviceInfo(ctx context.Context, id string, fields ...string) (map[string]string, error) { // want GetDeviceInfo:"defers a release under parameter 0 at spreadargs.go:32"
	token := uuid.NewString()
	key := "mutex:device:info:" + id
	ok, err := c.rdb.SetNX(ctx, key, token, 8*time.Second).Result()
	if err != nil || !ok {
		return nil, errors.New("busy")
	}
	defer func() {
		_ = c.rdb.Eval(ctx, releaseScript, []string{key}, token).Err()
	}()
	return c.rdb.HGetAll(ctx, "device:"+id).Result()
}

type Handler struct{ cache *Cache }

func (h *Handler) Info(w http.ResponseWriter, r *http.Request) {
	fields := r.URL.Query()["field"]
	if _, err := h.cache.GetDeviceInfo(r.Context(), r.URL.Query().Get("id"), fields...); err != nil { // want "`h.cache.GetDeviceInfo` defers its lock's release \\(spreadargs.go:32\\): `r.Context\\(\\)` is the request's"
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
	}
}

// Near miss: a refresh under a context that outlives any request.
func (h *Handler) Refresh(ids []string, fields []string) {
	for _, id := range ids {
		_, _ = h.cache.GetDeviceInfo(context.Background(), id, fields...)
	}
}
