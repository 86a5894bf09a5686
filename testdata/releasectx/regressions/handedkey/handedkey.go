// Package handedkey pins a lock key handed from a middleware to its
// handler through the request's context values, which the handler
// deletes in a deferred function under the request's context: a client
// that goes away cancels that context, the delete fails without being
// sent, and the lock stays until its TTL. The near miss deletes under a
// context detached from the request.
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
		lockKey := "idemp:" + c.Request.Header.Get("Idempotency-Key") + ":lock"
		if !rdb.SetNX(c.Request.Context(), lockKey, "locked", 30*time.Second).Val() {
			c.AbortWithStatus(http.StatusConflict)
			return
		}
		c.Set("idempotency_lock_key", lockKey)
		c.Next()
	}
}

type Handler struct{ rdb *redis.Client }

func (h *Handler) Checkout(c *Context) {
	lockKey, _ := c.Get("idempotency_lock_key")
	defer func() {
		if lockKey != nil {
			h.rdb.Del(c.Request.Context(), lockKey.(string)) // want "deferred DEL: `c.Request.Context\\(\\)` is the request's"
		}
	}()
}

func (h *Handler) Refund(c *Context) {
	lockKey, _ := c.Get("idempotency_lock_key")
	defer func() {
		if lockKey != nil {
			h.rdb.Del(context.WithoutCancel(c.Request.Context()), lockKey.(string))
		}
	}()
}
