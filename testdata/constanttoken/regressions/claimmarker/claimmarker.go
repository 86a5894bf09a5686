// Package claimmarker pins issue 32's shape 2, constant values in markers
// nobody compares: a daily-bonus claim and a short per-order notification
// claim are taken with SETNX and the value "1" and a TTL, and are never
// released, renewed or read back; the TTL ends them. No owner check reads
// the value, so a constant protects nothing and is no finding. The twin
// releases its claim through a compare-and-delete script given the same
// constant: the owner check passes for any holder, so one worker's
// release deletes another's claim.
package claimmarker

import (
	"context"
	"fmt"
	"time"

	"github.com/go-redis/redis/v8"
	redigo "github.com/gomodule/redigo/redis"
)

// Near miss (silent): once per user and day, never released or compared.
func ClaimDailyBonus(ctx context.Context, rdb *redis.Client, user string, grant func() error) error {
	day := time.Now().Format("20060102")
	ok, err := rdb.SetNX(ctx, fmt.Sprintf("bonus:lock:%s:%s", user, day), "1", 26*time.Hour).Result()
	if err != nil || !ok {
		return err
	}
	return grant()
}

// Near miss (silent): a 30 s claim so that one replica sends the mail.
func ClaimNotification(c redigo.Conn, order string, send func()) {
	if _, err := redigo.String(c.Do("SET", "notify:lock:"+order, "1", "EX", 30, "NX")); err != nil {
		return
	}
	send()
}

var releaseIfOwner = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

// Must report: the release compares the value, and every holder stored "1".
func RebuildIndex(ctx context.Context, rdb *redis.Client, index string, rebuild func()) error {
	key := "reindex:lock:" + index
	ok, err := rdb.SetNX(ctx, key, "1", time.Minute).Result() // want "lock key `key` acquired with a non-unique token \\(the constant `\"1\"`\\)"
	if err != nil || !ok {
		return err
	}
	defer releaseIfOwner.Run(ctx, rdb, []string{key}, "1")
	rebuild()
	return nil
}

// Must report: the caller learns it holds the claim, and may release it
// with a compare that every holder's "1" passes.
func TryClaim(ctx context.Context, rdb *redis.Client, job string) (bool, error) {
	ok, err := rdb.SetNX(ctx, "job:lock:"+job, "1", time.Minute).Result() // want "lock key `\"job:lock:\" \\+ job` acquired with a non-unique token \\(the constant `\"1\"`\\)"
	return ok, err
}
