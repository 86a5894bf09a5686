// Package handedkey pins a lock key handed from a middleware to its
// handler through the request's context values: the middleware takes the
// in-flight lock with SETNX and stores its key under a name that says
// lock; the handler reads it back and deletes it, with no owner check,
// once the work is done. The near miss hands on a cache key under a name
// that says nothing of a lock.
package handedkey

import (
	"context"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"
)

type Context struct {
	Request *http.Request
	keys    map[string]any
}

func (c *Context) Set(k string, v any)      { c.keys[k] = v }
func (c *Context) Get(k string) (any, bool) { v, ok := c.keys[k]; return v, ok }
func (c *Context) Next()                    {}
func (c *Context) AbortWithStatus(code int) {}

func Idempotency(rdb *redis.Client) func(*Context) {
	return func(c *Context) {
		key := c.Request.Header.Get("Idempotency-Key")
		lockKey := "idemp:" + key + ":lock"
		if !rdb.SetNX(c.Request.Context(), lockKey, "locked", 30*time.Second).Val() {
			c.AbortWithStatus(http.StatusConflict)
			return
		}
		c.Set("idempotency_cache_key", "idemp:"+key)
		c.Set("idempotency_lock_key", lockKey)
		c.Next()
	}
}

type Handler struct{ rdb *redis.Client }

func (h *Handler) Checkout(c *Context) {
	lockKey, _ := c.Get("idempotency_lock_key")
	defer func() {
		if lockKey != nil {
			h.rdb.Del(context.Background(), lockKey.(string)) // want "DEL of lock key"
		}
	}()
	cacheKey, _ := c.Get("idempotency_cache_key")
	h.rdb.Set(c.Request.Context(), cacheKey.(string), "done", 24*time.Hour)
}

func (h *Handler) Forget(c *Context) {
	cacheKey, _ := c.Get("idempotency_cache_key")
	h.rdb.Del(context.Background(), cacheKey.(string))
}
