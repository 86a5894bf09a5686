// Package goidtoken pins issue 32's miss of a goroutine id from
// github.com/petermattis/goid as the owner: the same for every acquisition
// of one goroutine, and repeated across replicas.
package goidtoken

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/petermattis/goid"
	"github.com/redis/go-redis/v9"
)

var unlock = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

type Locker struct{ rdb *redis.Client }

func owner() string { return fmt.Sprintf("g%d", goid.Get()) }

// Must report: the owner is the goroutine id.
func (l *Locker) Lock(ctx context.Context, name string) (bool, error) {
	return l.rdb.SetNX(ctx, "lock:"+name, owner(), 30*time.Second).Result() // want "lock key `\"lock:\" \\+ name` acquired with a non-unique token \\(`goid\\.Get`, returned by `owner`\\)"
}

func (l *Locker) Unlock(ctx context.Context, name string) error {
	return unlock.Run(ctx, l.rdb, []string{"lock:" + name}, owner()).Err()
}

// Near miss (silent): a random owner per acquisition, returned to the caller.
func (l *Locker) TryLock(ctx context.Context, name string) (string, bool, error) {
	token := uuid.NewString()
	ok, err := l.rdb.SetNX(ctx, "lock:"+name, token, 30*time.Second).Result()
	return token, ok, err
}

// Mutex is a handle for one key whose owner is the goroutine that locks it.
type Mutex struct {
	rdb   *redis.Client
	key   string
	owner string
}

// Must report: the owner stored in the handle at Lock is the goroutine id.
func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	m.owner = strconv.FormatInt(goid.Get(), 10)
	return m.rdb.SetNX(ctx, m.key, m.owner, 30*time.Second).Result() // want "lock key `m\\.key` acquired with a non-unique token \\(.*`goid\\.Get`.*\\)"
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return unlock.Run(ctx, m.rdb, []string{m.key}, m.owner).Err()
}
