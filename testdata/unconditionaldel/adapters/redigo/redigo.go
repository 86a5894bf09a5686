// Package redigo releases redigo locks: the fix calls the core's Release
// with the connection made a lock.Client by fixredigo.Conn, or the pool
// by fixredigo.Pool when the connection is taken in the same expression.
package redigo

import (
	"context"

	"github.com/gomodule/redigo/redis"
)

func withContext(ctx context.Context, conn redis.ConnWithContext, token string) error {
	if _, err := redis.String(conn.DoContext(ctx, "SET", "lock:feed", token, "NX", "PX", 30000)); err != nil {
		return err
	}
	_, err := conn.DoContext(ctx, "DEL", "lock:feed") // want "DEL of lock key `\"lock:feed\"` without an owner check; release with `lock\\.Release` via `fixredigo\\.Conn` \\(DELEX IFEQ or compare-and-delete\\)"
	return err
}

func packageDoContext(ctx context.Context, conn redis.Conn, id, token string) error {
	key := "lock:job:" + id
	if _, err := redis.String(redis.DoContext(conn, ctx, "SET", key, token, "NX", "PX", 30000)); err != nil {
		return err
	}
	defer redis.DoContext(conn, ctx, "DEL", key) // want "DEL of lock key `key` without an owner check; release with `lock\\.Release` via `fixredigo\\.Conn`"
	return nil
}

func fromPool(ctx context.Context, pool *redis.Pool, token string) error {
	if _, err := redis.String(redis.DoContext(pool.Get(), ctx, "SET", "lock:sweep", token, "NX", "PX", 30000)); err != nil {
		return err
	}
	_, err := redis.DoContext(pool.Get(), ctx, "DEL", "lock:sweep") // want "DEL of lock key `\"lock:sweep\"` without an owner check; release with `lock\\.Release` via `fixredigo\\.Pool`"
	return err
}

// Do takes no context, and the library takes one: the finding names the
// adapter and has no fix.
func noContext(conn redis.Conn, token string) error {
	if _, err := redis.String(conn.Do("SET", "lock:nightly", token, "NX", "PX", 30000)); err != nil {
		return err
	}
	_, err := conn.Do("DEL", "lock:nightly") // want "DEL of lock key `\"lock:nightly\"` without an owner check; release with `lock\\.Release` via `fixredigo\\.Conn`"
	return err
}

// Near miss: the reply is used, and the library's Release has none.
func replyUsed(ctx context.Context, conn redis.Conn, token string) (int, error) {
	if _, err := redis.String(redis.DoContext(conn, ctx, "SET", "lock:count", token, "NX", "PX", 30000)); err != nil {
		return 0, err
	}
	return redis.Int(redis.DoContext(conn, ctx, "DEL", "lock:count")) // want "DEL of lock key `\"lock:count\"` without an owner check; release with `lock\\.Release` via `fixredigo\\.Conn`"
}
