// Package scriptmap pins issue 32's miss of a service's own script
// interface whose scripts are raw strings in a map literal: Scripter runs
// a script by name, the map holds the Lua, and the go-redis adapter
// evaluates it. The "unlock" script deletes the lock key with no owner
// check. The near miss, "release", compares the token first.
package scriptmap

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var scripts = map[string]string{
	"lock":    `return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`,
	"unlock":  `return redis.call('DEL', KEYS[1])`, // want "Lua line 1: DEL of KEYS\\[1\\] \\(lock key .*\\) with no owner check"
	"release": `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`,
}

// Scripter is the service's port for running the scripts by name.
type Scripter interface {
	Run(ctx context.Context, name string, keys []string, args ...interface{}) (interface{}, error)
}

type redisScripter struct{ rdb redis.UniversalClient }

func NewScripter(rdb redis.UniversalClient) Scripter { return &redisScripter{rdb: rdb} }

func (s *redisScripter) Run(ctx context.Context, name string, keys []string, args ...interface{}) (interface{}, error) {
	return s.rdb.Eval(ctx, scripts[name], keys, args...).Result()
}

type Lock struct {
	s     Scripter
	key   string
	token string
}

func (l *Lock) Lock(ctx context.Context, ttl time.Duration) error {
	_, err := l.s.Run(ctx, "lock", []string{l.key}, l.token, ttl.Milliseconds())
	return err
}

// Must report (at the map entry): deletes whoever holds the key.
func (l *Lock) Unlock(ctx context.Context) error {
	_, err := l.s.Run(ctx, "unlock", []string{l.key})
	return err
}

// Near miss (silent): compares the token before the DEL.
func (l *Lock) Release(ctx context.Context) error {
	_, err := l.s.Run(ctx, "release", []string{l.key}, l.token)
	return err
}
