// Package guardtype pins a lock type whose names say nothing of a lock:
// JobGuard takes its key with SET NX in one method and deletes it in
// another, and nothing reads the key as data. The DEL was known for a
// lock's release; the SET NX is that lock's acquire, and the owner its
// constructor stores for every guard is the same in every replica. The
// near miss is a typed-key store: the same SET NX and DEL beside a GET
// that returns the value, a write and not an acquire.
package guardtype

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type JobGuard struct {
	rdb   *redis.Client
	name  string
	owner string
}

func NewJobGuard(rdb *redis.Client, name string) *JobGuard {
	return &JobGuard{rdb: rdb, name: name, owner: "worker"}
}

func (g *JobGuard) Take(ctx context.Context) bool {
	return g.rdb.SetNX(ctx, "guard:"+g.name, g.owner, time.Minute).Val() // want "lock key `\"guard:\" \\+ g.name` acquired with a non-unique token \\(field `owner`, the constant `\"worker\"`\\)"
}

func (g *JobGuard) Drop(ctx context.Context) {
	g.rdb.Del(ctx, "guard:"+g.name)
}

type Slot struct {
	rdb *redis.Client
	key string
	def string
}

func NewSlot(rdb *redis.Client, key string) *Slot { return &Slot{rdb: rdb, key: key, def: "empty"} }

func (s *Slot) Init(ctx context.Context) bool {
	return s.rdb.SetNX(ctx, s.key, s.def, time.Hour).Val()
}

func (s *Slot) Value(ctx context.Context) string { return s.rdb.Get(ctx, s.key).Val() }

func (s *Slot) Clear(ctx context.Context) { s.rdb.Del(ctx, s.key) }
