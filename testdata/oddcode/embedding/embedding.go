// Package embedding reaches go-redis through embedded interfaces and
// structs, and through an interface the package declares itself.
package embedding

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Store embeds the go-redis interface inside another interface.
type Store interface {
	redis.Cmdable
	Name() string
}

// Conn embeds a client struct.
type Conn struct {
	*redis.Client
	lockKey string
}

// Mini is a hand-written interface with go-redis's method signatures; its
// calls have no go-redis callee, but they are the same commands.
type Mini interface {
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

func ThroughInterface(ctx context.Context, s Store) {
	s.SetNX(ctx, "lock:"+s.Name(), "t", 0) // want "lock key `\"lock:\" \\+ s\\.Name\\(\\)` acquired with no expiry"
}

func ReleaseThroughInterface(ctx context.Context, s Store) {
	s.Del(ctx, "lock:"+s.Name()) // want "DEL of lock key `\"lock:\" \\+ s\\.Name\\(\\)` without an owner check"
}

func ThroughStruct(ctx context.Context, c *Conn) {
	if c.SetNX(ctx, c.lockKey, "t", time.Second).Val() {
		c.Del(ctx, c.lockKey) // want "DEL of lock key `c\\.lockKey` without an owner check"
	}
}

func ThroughOwnInterface(ctx context.Context, m Mini) {
	m.Del(ctx, "lock:x") // want "DEL of lock key `\"lock:x\"` without an owner check"
}

// Nil interface values and zero structs must not trip the model.
func Zero(ctx context.Context) {
	var s Store
	var c Conn
	_, _ = s, c
}
