package anyclient

import (
	"context"

	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

var counter = rueidis.NewLuaScript(`redis.call('INCR', KEYS[1]) return redis.call('INCR', KEYS[2])`)

// With -anyclient every client may be a Cluster client.
func counters(ctx context.Context, c rueidis.Client, page string) error {
	return counter.Exec(ctx, c, []string{"hits:" + page, "hits:all"}, nil).Error() // want "`\"hits:\" \\+ page` and `\"hits:all\"` may hash to different Cluster slots"
}

func standalone(ctx context.Context, rdb *redis.Client, page string) error {
	return rdb.Eval(ctx, `return redis.call('INCR', KEYS[2])`, []string{"hits:" + page, "hits:all"}).Err() // want "`\"hits:\" \\+ page` and `\"hits:all\"` may hash to different Cluster slots"
}

// Near miss: still silent on tagged keys.
func tagged(ctx context.Context, c rueidis.Client, page string) error {
	return counter.Exec(ctx, c, []string{"hits:{" + page + "}", "hits:{" + page + "}:all"}, nil).Error()
}
