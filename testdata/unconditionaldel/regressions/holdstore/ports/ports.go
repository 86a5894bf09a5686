// Package ports declares the store the services depend on, in go-redis's
// words for Hold's arguments but with a name of its own, and with no SetNX:
// the implementation (package store) is wired in by main, which these
// packages never import.
package ports

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Cacher interface {
	Get(ctx context.Context, key string) (string, error)
	Set(ctx context.Context, key string, value any, ttl time.Duration) error
	Delete(ctx context.Context, keys ...string) error
	Hold(ctx context.Context, key string, value any, args redis.SetArgs) error
}

// Counter takes SetArgs too, but as a counter's options: no key and
// value before them, so it is no port.
type Counter interface {
	Delete(ctx context.Context, keys ...string) error
	Bump(ctx context.Context, args redis.SetArgs) error
}
