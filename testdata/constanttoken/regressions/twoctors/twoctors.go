// Package twoctors pins a lock handle with two constructors that both
// draw its token from one helper over a math/rand source: the helper's
// answer is the same for the second call as for the first, so the token
// is math/rand whichever constructor made the handle: reported. The
// near miss draws it from crypto/rand in both.
package twoctors

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"math/rand"
	"time"

	"github.com/redis/go-redis/v9"
)

var src = rand.NewSource(time.Now().UnixNano())

func randomString(n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[src.Int63()%int64(len(letters))]
	}
	return string(b)
}

type Mutex struct {
	rdb   *redis.Client
	name  string
	value string
}

func NewMutex(rdb *redis.Client, name string) *Mutex {
	return &Mutex{rdb: rdb, name: name, value: randomString(32)}
}

func NewMutexFor(rdb *redis.Client, name string, n int) *Mutex {
	return &Mutex{rdb: rdb, name: name, value: randomString(n)}
}

func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.name, m.value, 8*time.Second).Result() // want "lock key `m.name` acquired with a non-unique token \\(field `value`, math/rand, returned by `randomString`\\)"
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

func (m *Mutex) Unlock(ctx context.Context) error {
	return m.rdb.Eval(ctx, unlock, []string{m.name}, m.value).Err()
}

func token() string {
	b := make([]byte, 16)
	if _, err := crand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

type Safe struct {
	rdb   *redis.Client
	name  string
	value string
}

func NewSafe(rdb *redis.Client, name string) *Safe {
	return &Safe{rdb: rdb, name: name, value: token()}
}

func NewSafeFor(rdb *redis.Client, name string) *Safe {
	return &Safe{rdb: rdb, name: name, value: token()}
}

func (s *Safe) Lock(ctx context.Context) (bool, error) {
	return s.rdb.SetNX(ctx, s.name, s.value, 8*time.Second).Result()
}

func (s *Safe) Unlock(ctx context.Context) error {
	return s.rdb.Eval(ctx, unlock, []string{s.name}, s.value).Err()
}
