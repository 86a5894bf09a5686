// Package snowflake pins a lock handle whose value is a snowflake id
// drawn per handle from the service's own generator in another package:
// the clock joined with a machine id and a sequence the generator steps
// on each call, unique per call: silent. The twin's value joins the
// clock with the machine id alone, the same for two handles made in one
// millisecond, and is compared by the release: reported.
package snowflake

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"locklint.test/constanttoken/regressions/snowflake/idgen"
)

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

type Lock struct {
	rdb   *redis.Client
	key   string
	value string
}

// Near miss (silent): a snowflake per handle.
func New(rdb *redis.Client, key string) *Lock {
	return &Lock{rdb: rdb, key: key, value: strconv.FormatInt(idgen.Gen(), 10)}
}

func (l *Lock) Lock(ctx context.Context) (bool, error) {
	return l.rdb.SetNX(ctx, l.key, l.value, 10*time.Second).Result()
}

func (l *Lock) Unlock(ctx context.Context) error {
	return release.Run(ctx, l.rdb, []string{l.key}, l.value).Err()
}

type StampedLock struct {
	rdb   *redis.Client
	key   string
	value string
}

// Must report: the clock and the machine id only.
func NewStamped(rdb *redis.Client, key string) *StampedLock {
	return &StampedLock{rdb: rdb, key: key, value: strconv.FormatInt(idgen.Stamp(), 10)}
}

func (l *StampedLock) Lock(ctx context.Context) (bool, error) {
	return l.rdb.SetNX(ctx, l.key, l.value, 10*time.Second).Result() // want "lock key `l\\.key` acquired with a non-unique token"
}

func (l *StampedLock) Unlock(ctx context.Context) error {
	return release.Run(ctx, l.rdb, []string{l.key}, l.value).Err()
}
