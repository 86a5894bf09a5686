// Package redislock is a small lock package with a port of its own:
// Obtain takes the lock through RedisClient and returns ErrNotObtained
// when another holds it. Nothing here is a finding.
package redislock

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"time"
)

var (
	ErrNotObtained = errors.New("redislock: not obtained")
	ErrNotHeld     = errors.New("redislock: lock not held")
)

// RedisClient is what Obtain needs of a client; examples adapt one.
type RedisClient interface {
	SetNX(key string, value interface{}, ttl time.Duration) (bool, error)
	Eval(script string, keys []string, args ...interface{}) (interface{}, error)
}

const releaseLua = `if redis.call("get", KEYS[1]) == ARGV[1] then
	return redis.call("del", KEYS[1])
end
return 0`

type Lock struct {
	client RedisClient
	key    string
	token  string
}

func Obtain(client RedisClient, key string, ttl time.Duration) (*Lock, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	ok, err := client.SetNX(key, token, ttl)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrNotObtained
	}
	return &Lock{client: client, key: key, token: token}, nil
}

func (l *Lock) Release() error {
	n, err := l.client.Eval(releaseLua, []string{l.key}, l.token)
	if err != nil {
		return err
	}
	if i, _ := n.(int64); i != 1 {
		return ErrNotHeld
	}
	return nil
}
