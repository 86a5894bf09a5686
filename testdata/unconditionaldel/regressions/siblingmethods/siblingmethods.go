// Package siblingmethods pins a per-chat guard whose key says nothing of
// a lock: one method of a type takes it with SET NX, another deletes it,
// each building the key alike from its argument, inline or through a
// key builder injected into a field. Start and Finish: a lock. A cache
// type's Put and Evict on keys its Get reads back are no lock.
package siblingmethods

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Guard struct {
	rdb *redis.Client
	key func(chat string) string
}

func NewGuard(rdb *redis.Client) *Guard {
	return &Guard{rdb: rdb, key: func(chat string) string { return "bot:processing:" + chat }}
}

func (g *Guard) Start(ctx context.Context, chat string) bool {
	return g.rdb.SetNX(ctx, g.key(chat), "1", time.Minute).Val()
}

func (g *Guard) Finish(ctx context.Context, chat string) {
	g.rdb.Del(ctx, g.key(chat)) // want "DEL of lock key `g.key\\(chat\\)` without an owner check"
}

type Busy struct{ rdb *redis.Client }

func (b *Busy) Begin(ctx context.Context, room string) bool {
	return b.rdb.SetNX(ctx, "room:busy:"+room, "1", time.Minute).Val()
}

func (b *Busy) End(ctx context.Context, room string) {
	b.rdb.Del(ctx, "room:busy:"+room) // want "DEL of lock key `\"room:busy:\" \\+ room` without an owner check"
}

type Cache struct{ rdb *redis.Client }

func (c *Cache) Put(ctx context.Context, id, v string) {
	c.rdb.SetNX(ctx, "cache:item:"+id, v, time.Hour)
}

func (c *Cache) Get(ctx context.Context, id string) string {
	return c.rdb.Get(ctx, "cache:item:"+id).Val()
}

func (c *Cache) Evict(ctx context.Context, id string) {
	c.rdb.Del(ctx, "cache:item:"+id)
}
