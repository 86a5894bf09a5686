// Package instanceclock pins a workers' manager whose periodic jobs take
// their locks with the worker's identity joined to the clock
// (instanceID + ":" + now): the identity, given to the worker's
// constructor by its maker (a UUID drawn at start-up) or drawn by the
// constructor itself, separates processes, and the clock separates one
// worker's successive rounds: silent. The twins still report: the clock
// alone, and a handle whose constructor keeps the lock's name, which the
// key is built from, joined to the clock: every process holds the same
// name, so only the clock tells holders apart.
package instanceclock

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func nowToken() string {
	return time.Now().UTC().Format("20060102150405.000000")
}

type Reaper struct {
	rdb        *redis.Client
	instanceID string
	ttl        time.Duration
}

func NewReaper(rdb *redis.Client, instanceID string) *Reaper {
	return &Reaper{rdb: rdb, instanceID: instanceID, ttl: time.Minute}
}

func (r *Reaper) tickOnce(ctx context.Context) {
	const key = "ocm:reaper:lock"
	token := r.instanceID + ":" + nowToken()
	ok, err := r.rdb.SetNX(ctx, key, token, r.ttl).Result()
	if err != nil || !ok {
		return
	}
	defer release.Run(context.Background(), r.rdb, []string{key}, token)
	r.reap(ctx)
}

func (r *Reaper) reap(context.Context) {}

type Renewer struct {
	rdb  *redis.Client
	node string
}

func NewRenewer(rdb *redis.Client) *Renewer {
	return &Renewer{rdb: rdb, node: uuid.NewString()}
}

func (r *Renewer) tick(ctx context.Context) {
	token := r.node + ":" + time.Now().Format(time.RFC3339Nano)
	ok, err := r.rdb.SetNX(ctx, "renewal:lock", token, time.Minute).Result()
	if err != nil || !ok {
		return
	}
	defer release.Run(context.Background(), r.rdb, []string{"renewal:lock"}, token)
}

// Twin: the clock alone.
func sweep(ctx context.Context, rdb *redis.Client) {
	token := nowToken()
	ok, err := rdb.SetNX(ctx, "sweep:lock", token, time.Minute).Result() // want "lock key `\"sweep:lock\"` acquired with a non-unique token \\(`time.Now`, returned by `nowToken`\\)"
	if err != nil || !ok {
		return
	}
	defer release.Run(context.Background(), rdb, []string{"sweep:lock"}, token)
}

// Twin: a handle per lock name; the name is in the key, so it names the
// lock, not its holder.
type Mutex struct {
	rdb  *redis.Client
	name string
}

func NewMutex(rdb *redis.Client, name string) *Mutex {
	return &Mutex{rdb: rdb, name: name}
}

func (m *Mutex) Lock(ctx context.Context) (string, bool) {
	token := m.name + ":" + nowToken()
	ok, err := m.rdb.SetNX(ctx, "mutex:"+m.name, token, time.Minute).Result() // want "lock key `\"mutex:\" \\+ m.name` acquired with a non-unique token \\(`time.Now`, returned by `nowToken`\\)"
	return token, err == nil && ok
}

func (m *Mutex) Unlock(ctx context.Context, token string) error {
	return release.Run(ctx, m.rdb, []string{"mutex:" + m.name}, token).Err()
}
