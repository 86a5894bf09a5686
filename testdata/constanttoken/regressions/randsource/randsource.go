// Package randsource pins a token drawn from a math/rand Source seeded
// with the clock, through the random-string loop that refills and shifts
// a cache of 63 bits: two processes started in the same tick draw the
// same tokens, and the sequence can be guessed. The near miss draws the
// same string from crypto/rand.
package randsource

import (
	"context"
	crand "crypto/rand"
	"math/rand"
	"time"

	"github.com/go-redis/redis/v8"
)

var src = rand.NewSource(time.Now().UnixNano())

const (
	letterBytes   = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	letterIdxBits = 6
	letterIdxMask = 1<<letterIdxBits - 1
	letterIdxMax  = 63 / letterIdxBits
)

func randomString(n int) string {
	b := make([]byte, n)
	for i, cache, remain := n-1, src.Int63(), letterIdxMax; i >= 0; {
		if remain == 0 {
			cache, remain = src.Int63(), letterIdxMax
		}
		if idx := int(cache & letterIdxMask); idx < len(letterBytes) {
			b[i] = letterBytes[idx]
			i--
		}
		cache >>= letterIdxBits
		remain--
	}
	return string(b)
}

func cryptoString(n int) string {
	b := make([]byte, n)
	if _, err := crand.Read(b); err != nil {
		panic(err)
	}
	for i := range b {
		b[i] = letterBytes[int(b[i])%len(letterBytes)]
	}
	return string(b)
}

var releaseScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// Must report: a math/rand token.
func Lock(ctx context.Context, rdb *redis.Client, name string) (func(), error) {
	token := randomString(32)
	ok, err := rdb.SetNX(ctx, "lock:"+name, token, 8*time.Second).Result() // want "non-unique token"
	if err != nil || !ok {
		return nil, err
	}
	return func() { releaseScript.Run(context.Background(), rdb, []string{"lock:" + name}, token) }, nil
}

// Near miss (silent): the same shape from crypto/rand.
func LockCrypto(ctx context.Context, rdb *redis.Client, name string) (func(), error) {
	token := cryptoString(32)
	ok, err := rdb.SetNX(ctx, "lock:"+name, token, 8*time.Second).Result()
	if err != nil || !ok {
		return nil, err
	}
	return func() { releaseScript.Run(context.Background(), rdb, []string{"lock:" + name}, token) }, nil
}
