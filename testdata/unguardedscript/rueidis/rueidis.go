package rueidis

import (
	"context"

	"github.com/redis/rueidis"
)

var unlock = rueidis.NewLuaScript(`redis.call('UNLINK', KEYS[1]) return 1`) // want "Lua line 1: UNLINK of KEYS\\[1\\] \\(lock key `\"mutex:\" \\+ name`\\) with no owner check"

func release(ctx context.Context, c rueidis.Client, name string) error {
	return unlock.Exec(ctx, c, []string{"mutex:" + name}, nil).Error()
}

func renew(ctx context.Context, c rueidis.Client, name string) error {
	return c.Do(ctx, c.B().Eval().Script("return redis.call('EXPIRE', KEYS[1], ARGV[1])").Numkeys(1).Key("lease:"+name).Arg("30").Build()).Error() // want "Lua line 1: EXPIRE of KEYS\\[1\\] \\(lock key `\"lease:\" \\+ name`\\) with no owner check"
}

// Near miss: the owner-checked forms.
var safeUnlock = rueidis.NewLuaScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

func safe(ctx context.Context, c rueidis.Client, name, token string) error {
	if err := safeUnlock.Exec(ctx, c, []string{"mutex:" + name}, []string{token}).Error(); err != nil {
		return err
	}
	return c.Do(ctx, c.B().Eval().Script("if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('EXPIRE', KEYS[1], ARGV[2]) end return 0").Numkeys(1).Key("lease:"+name).Arg(token, "30").Build()).Error()
}
