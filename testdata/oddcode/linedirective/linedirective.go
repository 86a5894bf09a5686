// Package linedirective carries //line directives, as generated parsers and
// templates do: positions map to another file, where no want comment can
// follow them, so the test checks only that the passes run cleanly.
package linedirective

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

//line template.tmpl:10
func Acquire(ctx context.Context, rdb *redis.Client, name string) bool {
//line template.tmpl:1
	ok := rdb.SetNX(ctx, "lock:"+name, "t", 0).Val()
	/*line :99:5*/ rdb.Expire(ctx, "lock:"+name, time.Minute)
	return ok
}

//line :1
func Release(ctx context.Context, rdb *redis.Client, name string) {
	rdb.Del(ctx, "lock:"+name)
}
