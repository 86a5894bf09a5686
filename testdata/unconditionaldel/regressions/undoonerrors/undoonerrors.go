// Package undoonerrors pins an HTTP idempotency marker: a middleware takes
// the request's key with SETNX for a day, runs the handler, and deletes
// the key only when the handler recorded errors (the framework's list of
// them), so that the client may retry; a request that succeeded keeps it.
// That is a dedupe marker undone on failure, not a lock's release. The
// twins delete the key after every request, or when the list is empty: a
// lock held across the handler, released with no owner check.
package undoonerrors

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Error and Context mirror a web framework's: handlers record their
// errors in Context.Errors.
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }

type Context struct {
	Errors []*Error
	header map[string]string
}

func (c *Context) Next()                  {}
func (c *Context) Abort()                 {}
func (c *Context) Header(k string) string { return c.header[k] }

func Idempotency(rdb *redis.Client) func(*Context) {
	return func(c *Context) {
		ctx := context.Background()
		key := "idempotency:" + c.Header("X-Idempotency-Key")
		ok, err := rdb.SetNX(ctx, key, "processing", 24*time.Hour).Result()
		if err != nil || !ok {
			c.Abort()
			return
		}
		c.Next()
		if len(c.Errors) > 0 {
			rdb.Del(ctx, key)
		}
	}
}

func Serialize(rdb *redis.Client) func(*Context) {
	return func(c *Context) {
		ctx := context.Background()
		key := "serial:lock:" + c.Header("X-Account")
		ok, err := rdb.SetNX(ctx, key, "processing", time.Minute).Result()
		if err != nil || !ok {
			c.Abort()
			return
		}
		c.Next()
		rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	}
}

func SerializeOnSuccess(rdb *redis.Client) func(*Context) {
	return func(c *Context) {
		ctx := context.Background()
		key := "serial:lock:" + c.Header("X-Order")
		ok, err := rdb.SetNX(ctx, key, "processing", time.Minute).Result()
		if err != nil || !ok {
			c.Abort()
			return
		}
		c.Next()
		if len(c.Errors) == 0 {
			rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
		}
	}
}
