// Package sliceexpire pins issue 32's miss of a lock key taken from a
// slice element: a worker takes one lock per shard with SET NX, keeps the
// keys it won in a slice, and a renewal loop extends each with a plain
// EXPIRE in a pipeline, so a lock that passed to another worker gets this
// worker's lease. The near misses renew each key with an owner-checked
// script in the same pipeline, or extend a slice that also receives a key
// nothing acquires.
package sliceexpire

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

const lease = 20 * time.Second

var refresh = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 0`)

type ShardWorker struct {
	rdb   *redis.Client
	token string
	held  []string
}

func NewShardWorker(rdb *redis.Client) *ShardWorker {
	return &ShardWorker{rdb: rdb, token: uuid.NewString()}
}

func (w *ShardWorker) Claim(ctx context.Context, shards []string) {
	for _, s := range shards {
		key := "shard:" + s + ":lock"
		if w.rdb.SetNX(ctx, key, w.token, lease).Val() {
			w.held = append(w.held, key)
		}
	}
}

// Must report: each held key is extended whoever holds it now.
func (w *ShardWorker) Renew(ctx context.Context) error {
	pipe := w.rdb.Pipeline()
	for _, key := range w.held {
		pipe.Expire(ctx, key, lease) // want "EXPIRE of lock key `key` without an owner check"
	}
	_, err := pipe.Exec(ctx)
	return err
}

// Near miss (silent): each renewal compares the worker's token.
func (w *ShardWorker) RenewOwned(ctx context.Context) error {
	pipe := w.rdb.Pipeline()
	for _, key := range w.held {
		refresh.Run(ctx, pipe, []string{key}, w.token, lease.Milliseconds())
	}
	_, err := pipe.Exec(ctx)
	return err
}

// Cache keeps the entries it added and one index key that nothing takes.
type Cache struct {
	rdb  *redis.Client
	keys []string
}

func (c *Cache) Fill(ctx context.Context, ids []string) {
	for _, id := range ids {
		key := "cache:" + id
		if c.rdb.SetNX(ctx, key, "1", time.Minute).Val() {
			c.keys = append(c.keys, key)
		}
	}
	c.keys = append(c.keys, "cache:index")
}

// Near miss (silent): the slice also receives a key nothing acquires, so
// its elements are no locks' keys.
func (c *Cache) Touch(ctx context.Context) error {
	pipe := c.rdb.Pipeline()
	for _, key := range c.keys {
		pipe.Expire(ctx, key, time.Minute)
	}
	_, err := pipe.Exec(ctx)
	return err
}
