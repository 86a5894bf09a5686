package rueidis

import (
	"context"

	"github.com/redis/rueidis"
)

// NewLuaScript: a release whose "not held" branch never runs.
var release = rueidis.NewLuaScript(`local v = redis.call('GET', KEYS[1]) if v == nil then return -1 end if v ~= ARGV[1] then return 0 end return redis.call('DEL', KEYS[1])`) // want "Lua line 1: GET reply == nil never holds"

func unlock(ctx context.Context, c rueidis.Client, name, token string) error {
	return release.Exec(ctx, c, []string{"mutex:" + name}, []string{token}).Error()
}

// The command builder's EVAL.
func acquire(ctx context.Context, c rueidis.Client, name, token string) error {
	return c.Do(ctx, c.B().Eval().Script("if redis.call('GET', KEYS[1]) == nil then return redis.call('SET', KEYS[1], ARGV[1], 'PX', 30000) end return 0").Numkeys(1).Key("mutex:"+name).Arg(token).Build()).Error() // want "Lua line 1: GET reply == nil never holds"
}

// Near miss: both compared with false.
var releaseFalse = rueidis.NewLuaScript(`local v = redis.call('GET', KEYS[1]) if v == false then return -1 end if v ~= ARGV[1] then return 0 end return redis.call('DEL', KEYS[1])`)

func near(ctx context.Context, c rueidis.Client, name, token string) error {
	if err := releaseFalse.Exec(ctx, c, []string{"mutex:" + name}, []string{token}).Error(); err != nil {
		return err
	}
	return c.Do(ctx, c.B().Eval().Script("if redis.call('GET', KEYS[1]) == false then return redis.call('SET', KEYS[1], ARGV[1], 'PX', 30000) end return 0").Numkeys(1).Key("mutex:"+name).Arg(token).Build()).Error()
}
