// Package embeddedclient pins a Redisson-style lock whose client is the
// package's own struct embedding redis.UniversalClient: Eval is the
// interface's, which a Cluster client satisfies. The release script's
// KEYS are the lock key and its pub/sub channel, "redisson_lock__channel"
// + key, derived with no hash tag: reported. The near miss braces the
// caller's key into the channel name.
package embeddedclient

import (
	"context"

	"github.com/redis/go-redis/v9"
)

const deleteScript = `if redis.call('hexists', KEYS[1], ARGV[2]) == 0 then return 0 end
redis.call('del', KEYS[1])
redis.call('publish', KEYS[2], ARGV[1])
return 1`

type Client struct {
	redis.UniversalClient
}

type RedisLock struct {
	*Client
	key  string
	uuid string
}

func (l *RedisLock) channel() string { return "redisson_lock__channel" + l.key }

func (l *RedisLock) Unlock(ctx context.Context) (bool, error) {
	keys := []string{l.key, l.channel()}
	n, err := l.Client.Eval(ctx, deleteScript, keys, "unlocked", l.uuid).Int() // want "may hash to different Cluster slots"
	return n == 1, err
}

type TaggedLock struct {
	*Client
	key  string
	uuid string
}

func (l *TaggedLock) channel() string { return "{" + l.key + "}:channel" }

func (l *TaggedLock) Unlock(ctx context.Context) (bool, error) {
	keys := []string{"{" + l.key + "}", l.channel()}
	n, err := l.Client.Eval(ctx, deleteScript, keys, "unlocked", l.uuid).Int()
	return n == 1, err
}
