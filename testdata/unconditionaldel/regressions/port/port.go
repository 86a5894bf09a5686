// Package port takes its locks through an interface of its own, in
// go-redis's words but with plain results, and imports no client: the
// adapter that satisfies it is wired in by main. The interface's SetNX
// (a key, a value and a lease) makes it a Redis port, and its methods
// are the commands.
package port

import (
	"context"
	"time"
)

// Store is the port.
type Store interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error)
	Get(ctx context.Context, key string) (string, error)
	Del(ctx context.Context, keys ...string) error
	Eval(ctx context.Context, script string, keys []string, args ...any) (any, error)
	// Named like a command, shaped otherwise: the adapter's own
	// owner-checked delete.
	Unlink(ctx context.Context, key, owner string) error
}

type Runner struct {
	store Store
	host  string
}

// The key has no lock word: it is a lock because it is taken with SetNX
// and given up with Del.
func (r *Runner) RunOnce(ctx context.Context, task string, run func()) {
	key := "jobs:running:" + task
	ok, err := r.store.SetNX(ctx, key, r.host, 10*time.Minute)
	if err != nil || !ok {
		return
	}
	defer r.store.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	run()
}

// Near misses: a cache key through the same port, a release whose script
// compares the owner, and the adapter's own delete.
func (r *Runner) Forget(ctx context.Context, task string) error {
	return r.store.Del(ctx, "jobs:cache:"+task)
}

const release = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func (r *Runner) RunChecked(ctx context.Context, task string, run func()) error {
	key := "jobs:running:" + task
	ok, err := r.store.SetNX(ctx, key, r.host, 10*time.Minute)
	if err != nil || !ok {
		return err
	}
	defer r.store.Eval(ctx, release, []string{key}, r.host)
	run()
	return nil
}

func (r *Runner) RunOwned(ctx context.Context, task string, run func()) error {
	key := "jobs:owned:" + task
	ok, err := r.store.SetNX(ctx, key, r.host, 10*time.Minute)
	if err != nil || !ok {
		return err
	}
	defer r.store.Unlink(ctx, key, r.host)
	run()
	return nil
}

// A set-if-absent without a lease is not Redis's SetNX shape: this
// registry may be anything, and its Del is left alone.
type Registry interface {
	SetNX(key string, v any) bool
	Del(key string)
}

func Claim(reg Registry, id string, run func()) {
	if reg.SetNX("lock:"+id, true) {
		defer reg.Del("lock:" + id)
		run()
	}
}

// A port with an implementation in the package is read through it: this
// Del compares the owner it was given at construction, so it is no DEL.
type Leases interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error)
	Del(ctx context.Context, keys ...string) error
}

type ownedLeases struct {
	store Store
	owner string
}

func (l ownedLeases) SetNX(ctx context.Context, key string, _ any, ttl time.Duration) (bool, error) {
	return l.store.SetNX(ctx, key, l.owner, ttl)
}

func (l ownedLeases) Del(ctx context.Context, keys ...string) error {
	for _, k := range keys {
		if _, err := l.store.Eval(ctx, release, []string{k}, l.owner); err != nil {
			return err
		}
	}
	return nil
}

func Renew(ctx context.Context, l Leases, id string, run func()) error {
	if ok, err := l.SetNX(ctx, "lease:"+id, "worker", time.Minute); err != nil || !ok {
		return err
	}
	defer l.Del(ctx, "lease:"+id)
	run()
	return nil
}

// Ports name DEL Delete as often as Del.
type Guard interface {
	SetNX(ctx context.Context, key string, value any, expiration time.Duration) (bool, error)
	Delete(ctx context.Context, key string) error
}

func Once(ctx context.Context, g Guard, id, owner string, run func()) {
	key := "payout:" + id + ":lock"
	if ok, err := g.SetNX(ctx, key, owner, time.Minute); err != nil || !ok {
		return
	}
	defer g.Delete(ctx, key) // want "DEL of lock key `key` without an owner check"
	run()
}
