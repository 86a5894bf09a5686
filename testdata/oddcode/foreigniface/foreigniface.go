// Package foreigniface defines its own types over another package's
// interfaces (type H decorator.QueryHandler[Q, R]), with implementations
// here that acquire and forward: the interfaces' methods belong to the
// other package, and no fact can be set on them here.
package foreigniface

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"locklint.test/oddcode/foreigniface/decorator"
)

type Query struct{ ID string }

type Handler decorator.QueryHandler[Query, bool]

type Store decorator.Store

type handler struct{ rdb *redis.Client }

func (h handler) Handle(ctx context.Context, q Query) (bool, error) {
	return h.rdb.SetNX(ctx, "lock:query:"+q.ID, uuid.NewString(), time.Minute).Result()
}

type store struct{ rdb *redis.Client }

func (s store) Remove(ctx context.Context, key string) error { return s.rdb.Del(ctx, key).Err() }

func New(rdb *redis.Client) (Handler, Store) { return handler{rdb}, store{rdb} }

func Run(ctx context.Context, h Handler, q Query) {
	for {
		if ok, err := h.Handle(ctx, q); err != nil || ok {
			return
		}
		time.Sleep(time.Second)
	}
}
