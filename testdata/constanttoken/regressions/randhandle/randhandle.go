// Package randhandle pins a lock handle whose token its constructor
// draws from the global math/rand source seeded with the clock at init:
// a handle is made per lock, but processes started in the same tick
// draw the same tokens, and the sequence can be guessed. The near miss
// draws the token from crypto/rand.
package randhandle

import (
	crand "crypto/rand"
	"encoding/hex"
	"math/rand"
	"time"

	red "github.com/go-redis/redis"
)

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

const lockCommand = `if redis.call("GET", KEYS[1]) == ARGV[1] then
    redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
    return "OK"
else
    return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])
end`

func init() {
	rand.Seed(time.Now().UnixNano())
}

func randomStr(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[rand.Intn(len(letters))]
	}
	return string(b)
}

type RedisLock struct {
	store red.Cmdable
	key   string
	id    string
}

func NewRedisLock(store red.Cmdable, key string) *RedisLock {
	return &RedisLock{store: store, key: key, id: randomStr(16)}
}

// Must report: the handle's token is math/rand (go-redis spreads the
// []string into ARGV).
func (rl *RedisLock) Acquire() (bool, error) {
	resp, err := rl.store.Eval(lockCommand, []string{rl.key}, []string{rl.id, "1000"}).Result() // want "non-unique token"
	if err == red.Nil {
		return false, nil
	}
	return resp == "OK", err
}

type CryptoLock struct {
	store red.Cmdable
	key   string
	id    string
}

func NewCryptoLock(store red.Cmdable, key string) *CryptoLock {
	b := make([]byte, 16)
	if _, err := crand.Read(b); err != nil {
		panic(err)
	}
	return &CryptoLock{store: store, key: key, id: hex.EncodeToString(b)}
}

// Near miss (silent): crypto/rand.
func (cl *CryptoLock) Acquire() (bool, error) {
	resp, err := cl.store.Eval(lockCommand, []string{cl.key}, cl.id, 1000).Result()
	if err == red.Nil {
		return false, nil
	}
	return resp == "OK", err
}
