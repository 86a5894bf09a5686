// Package helpercompare pins issue 32's miss of a GET, an owner compare in
// a small helper, then a DEL: two round trips, so the lock may pass to
// another holder between the compare and the DEL. The compare is
// strings.HasPrefix on "<token>:<host>" in one helper, equality in
// another. The near miss deletes through a compare-and-delete script.
package helpercompare

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/go-redis/redis/v8"
	"github.com/google/uuid"
)

var unlock = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

type Lock struct {
	rdb   *redis.Client
	key   string
	value string
}

func Acquire(ctx context.Context, rdb *redis.Client, name string) (*Lock, error) {
	host, _ := os.Hostname()
	l := &Lock{rdb: rdb, key: "lock:" + name, value: uuid.NewString() + ":" + host}
	ok, err := rdb.SetNX(ctx, l.key, l.value, 30*time.Second).Result()
	if err != nil || !ok {
		return nil, err
	}
	return l, nil
}

func ownedBy(stored, value string) bool {
	token, _, _ := strings.Cut(value, ":")
	return strings.HasPrefix(stored, token+":")
}

func same(a, b string) bool { return a == b }

// Must report: the owner compare is in ownedBy, the DEL a round trip later.
func (l *Lock) Release(ctx context.Context) error {
	stored, err := l.rdb.Get(ctx, l.key).Result()
	if err != nil {
		return err
	}
	if !ownedBy(stored, l.value) {
		return nil
	}
	return l.rdb.Del(ctx, l.key).Err() // want "GET on line \\d+ and this DEL of lock key `l\\.key` are two round trips"
}

// Must report: the same with equality in a helper.
func (l *Lock) Unlock(ctx context.Context) error {
	if same(l.rdb.Get(ctx, l.key).Val(), l.value) {
		return l.rdb.Del(ctx, l.key).Err() // want "GET on line \\d+ and this DEL of lock key `l\\.key` are two round trips"
	}
	return nil
}

// Near miss (silent): compare and delete in one script.
func (l *Lock) ReleaseAtomic(ctx context.Context) error {
	return unlock.Run(ctx, l.rdb, []string{l.key}, l.value).Err()
}
