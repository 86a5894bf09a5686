// Package foreigniface defines its own types over another package's
// interfaces (type H decorator.QueryHandler[Q, R]), with implementations
// here that acquire and forward: the interfaces' methods belong to the
// other package, and no fact can be set on them here. One handler's
// Handle defers its lock's release under its context parameter, and
// another type's Remove releases under its own: a deferrer and a
// releaser whose interface methods are the other package's.
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

type Checker decorator.QueryHandler[Query, []string]

type Releaser decorator.Store

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

var unlockScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

type checker struct{ rdb *redis.Client }

func (c checker) unlock(ctx context.Context, key, token string) error {
	return unlockScript.Run(ctx, c.rdb, []string{key}, token).Err()
}

func (c checker) Handle(ctx context.Context, q Query) ([]string, error) {
	key, token := "lock:check:"+q.ID, uuid.NewString()
	ok, err := c.rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return nil, err
	}
	defer c.unlock(ctx, key, token)
	return c.rdb.LRange(ctx, "items:"+q.ID, 0, -1).Result()
}

func NewChecker(rdb *redis.Client) Checker { return checker{rdb} }

type releaser struct{ rdb *redis.Client }

func (r releaser) Remove(ctx context.Context, key string) error {
	return unlockScript.Run(ctx, r.rdb, []string{key}, "owner").Err()
}

func NewReleaser(rdb *redis.Client) Releaser { return releaser{rdb} }
