// Package scriptmapwritten is scriptmap's near miss: the map of scripts
// is written at start-up, so a name no longer says which text runs, and
// the DEL in the literal may never be the one sent. Silent.
package scriptmapwritten

import (
	"context"
	"os"

	"github.com/redis/go-redis/v9"
)

var scripts = map[string]string{
	"unlock": `return redis.call('DEL', KEYS[1])`,
}

func init() {
	if os.Getenv("SAFE_UNLOCK") != "" {
		scripts["unlock"] = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`
	}
}

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

func (l *Lock) Lock(ctx context.Context) error {
	return redis.NewClient(&redis.Options{}).SetNX(ctx, l.key, l.token, 0).Err()
}

func (l *Lock) Unlock(ctx context.Context) error {
	_, err := l.s.Run(ctx, "unlock", []string{l.key}, l.token)
	return err
}
