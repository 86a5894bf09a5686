package rueidis

import (
	"context"

	"github.com/redis/rueidis"
)

const acquireLua = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('INCR', KEYS[2]) end return 0`

var acquire = rueidis.NewLuaScript(acquireLua)

func obtainLua(ctx context.Context, c rueidis.Client, id, token string) error {
	return acquire.Exec(ctx, c, []string{"lock:" + id, "fence:" + id}, []string{token, "30000"}).Error() // want "`\"lock:\" \\+ id` and `\"fence:\" \\+ id` may hash to different Cluster slots"
}

func obtainBuilder(ctx context.Context, c rueidis.Client, id, token string) error {
	return c.Do(ctx, c.B().Eval().Script(acquireLua).Numkeys(2).Key("lock:"+id, "fence:"+id).Arg(token, "30000").Build()).Error() // want "`\"lock:\" \\+ id` and `\"fence:\" \\+ id` may hash to different Cluster slots; share one \\{hash tag\\}, or use `lock\\.WithFencing` via `fixrueidis\\.Client`$"
}

// Near miss: tagged keys, and keys spread from a slice built at run time.
func tagged(ctx context.Context, c rueidis.Client, id, token string) error {
	return acquire.Exec(ctx, c, []string{"lock:{" + id + "}", "fence:{" + id + "}"}, []string{token, "30000"}).Error()
}

func spread(ctx context.Context, c rueidis.Client, keys []string, token string) error {
	return c.Do(ctx, c.B().Eval().Script(acquireLua).Numkeys(2).Key(keys...).Arg(token).Build()).Error()
}

// Near miss: rueidis does not say whether it talks to a Cluster, and these
// are no lock and fence (see the anyclient test).
func counters(ctx context.Context, c rueidis.Client, page string) error {
	return acquire.Exec(ctx, c, []string{"hits:" + page, "hits:all"}, nil).Error()
}
