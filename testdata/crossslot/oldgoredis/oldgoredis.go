package oldgoredis

import (
	"context"

	redis6 "github.com/go-redis/redis"
	"github.com/go-redis/redis/v8"
)

var acquire8 = redis.NewScript(`if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('INCR', KEYS[2]) end return 0`)

func obtainV8(ctx context.Context, rdb *redis.ClusterClient, id, token string) error {
	return acquire8.Run(ctx, rdb, []string{"lock:" + id, "fence:" + id}, token, 30000).Err() // want "`\"lock:\" \\+ id` and `\"fence:\" \\+ id` may hash to different Cluster slots"
}

// v6 has no context parameter.
func obtainV6(rdb *redis6.ClusterClient, id, token string) error {
	return rdb.Eval(`return redis.call('INCR', KEYS[2])`, []string{"lock:" + id, "fence:" + id}, token).Err() // want "`\"lock:\" \\+ id` and `\"fence:\" \\+ id` may hash to different Cluster slots; share one \\{hash tag\\}, or use `lock\\.WithFencing`$"
}

// Near miss: tagged keys on v8 and v6.
func taggedV8(ctx context.Context, rdb *redis.ClusterClient, id, token string) error {
	return acquire8.Run(ctx, rdb, []string{"lock:{" + id + "}", "fence:{" + id + "}"}, token, 30000).Err()
}

func taggedV6(rdb *redis6.ClusterClient, id, token string) error {
	return rdb.Eval(`return redis.call('INCR', KEYS[2])`, []string{"{" + id + "}:lock", "{" + id + "}:fence"}, token).Err()
}
