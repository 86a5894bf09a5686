// Package selfcompare pins a release that compares the key with itself:
// UnLock reads the key's current value with GET, then runs the
// compare-and-delete script with that value as the owner, so the check
// holds whoever holds the key and the script deletes the next holder's
// lock as a plain DEL would. The near miss gives the script the token
// the lock was taken with.
package selfcompare

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const unlock = `
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`

type Lock struct {
	rdb   *redis.Client
	key   string
	token string
}

func (l *Lock) Lock(ctx context.Context) bool {
	ok, err := l.rdb.SetNX(ctx, l.key, l.token, time.Second).Result()
	return err == nil && ok
}

func (l *Lock) UnLock(ctx context.Context) {
	value, err := l.rdb.Get(ctx, l.key).Result()
	if err != nil {
		return
	}
	_, _ = l.rdb.Eval(ctx, unlock, []string{l.key}, value).Result() // want "EVAL compares lock key `l.key` with the value read from it on line 34, so it deletes whoever holds it"
}

// Near miss (silent): the owner is the token the lock was taken with.
func (l *Lock) Release(ctx context.Context) {
	_, _ = l.rdb.Eval(ctx, unlock, []string{l.key}, l.token).Result()
}
