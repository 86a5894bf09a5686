// Package derivedkeys pins companion keys a lock package derives from
// the caller's key with no hash tag: a writer-intent key (key +
// ":lock-intent") and an unlock channel ("lock__channel" + key), passed
// with the lock key to one script. On a Cluster client, which the
// package's client types accept, the two land on different slots unless
// every caller braces its key, and each call fails with CROSSSLOT. The
// near misses tag the derived key themselves, or take a *redis.Client.
package derivedkeys

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var lockScript = redis.NewScript(`return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) or redis.call('SET', KEYS[2], 1, 'PX', ARGV[2])`)

const unlockScript = `if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', KEYS[2], 1)
return 1`

type lockOptions struct {
	key           string
	lockIntentKey string
	ttl           time.Duration
}

func intentKey(key string) string { return key + ":lock-intent" }

type Mutex struct {
	rc   redis.Scripter
	opts lockOptions
}

func NewMutex(rc redis.Scripter, name string) *Mutex {
	return &Mutex{rc: rc, opts: lockOptions{key: name, lockIntentKey: intentKey(name), ttl: time.Second}}
}

// Must report: the intent key is the caller's key plus untagged text.
func (m *Mutex) Lock(ctx context.Context, id string) error {
	return lockScript.Run(ctx, m.rc, []string{m.opts.key, m.opts.lockIntentKey}, id, m.opts.ttl.Milliseconds()).Err() // want "may hash to different Cluster slots"
}

type RedisLock struct {
	Client redis.UniversalClient
	key    string
}

func NewRedisLock(c redis.UniversalClient, key string) *RedisLock {
	return &RedisLock{Client: c, key: key}
}

func (l *RedisLock) channel() string { return "lock__channel" + l.key }

// Must report: the channel is the lock key with untagged text before it.
func (l *RedisLock) Unlock(ctx context.Context, owner string) error {
	return l.Client.Eval(ctx, unlockScript, []string{l.key, l.channel()}, owner).Err() // want "may hash to different Cluster slots"
}

func (l *RedisLock) taggedChannel() string { return "lock__channel{" + l.key + "}" }

// Near miss (silent): both keys carry the same tag.
func (l *RedisLock) UnlockTagged(ctx context.Context, owner string) error {
	return l.Client.Eval(ctx, unlockScript, []string{"{" + l.key + "}", l.taggedChannel()}, owner).Err()
}

// Near miss (silent): a single node's client.
func UnlockSingle(ctx context.Context, rdb *redis.Client, key, owner string) error {
	return rdb.Eval(ctx, unlockScript, []string{key, key + ":channel"}, owner).Err()
}
