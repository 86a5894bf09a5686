package goredis

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const lockTTL = 30 * time.Second

const noExpiry time.Duration = 0

// The classic: SETNX, then EXPIRE of the same key.
func acquireThenExpire(ctx context.Context, rdb *redis.Client, token string) bool {
	ok, err := rdb.SetNX(ctx, "lock:report", token, 0).Result() // want `SETNX and the EXPIRE on line 21 are separate commands`
	if err != nil || !ok {
		return false
	}
	rdb.Expire(ctx, "lock:report", lockTTL)
	return true
}

// Near miss: the TTL is set in the acquire.
func acquireWithTTL(ctx context.Context, rdb *redis.Client, token string) bool {
	ok, _ := rdb.SetNX(ctx, "lock:report", token, lockTTL).Result()
	return ok
}

// PEXPIRE through a UniversalClient, key in a local variable built with
// Sprintf, zero TTL through a named constant.
func universal(ctx context.Context, rdb redis.UniversalClient, jobID string) error {
	key := fmt.Sprintf("jobs:%s:lock", jobID)
	if err := rdb.SetNX(ctx, key, "1", noExpiry).Err(); err != nil { // want `SETNX and the PEXPIRE on line 38 are separate commands`
		return err
	}
	rdb.PExpire(ctx, key, lockTTL)
	return nil
}

// Near miss: EXPIRE of a different key.
func differentKey(ctx context.Context, rdb *redis.Client, token string) {
	rdb.SetNX(ctx, "lock:a", token, lockTTL)
	rdb.Expire(ctx, "lock:b", lockTTL)
}

// Inside a pipeline the EXPIRE runs whatever SETNX answered.
func pipelined(ctx context.Context, rdb *redis.ClusterClient, key, token string) error {
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetNX(ctx, key, token, 0) // want `the EXPIRE queued on line 52 runs even when this SETNX fails`
		pipe.Expire(ctx, key, lockTTL)
		return nil
	})
	return err
}

// SetArgs with Mode NX and no TTL, then EXPIREAT: no fix (a time.Time).
func setArgs(ctx context.Context, rdb *redis.Client, token string, until time.Time) {
	rdb.SetArgs(ctx, "mutex:billing", token, redis.SetArgs{Mode: "NX"}) // want `SETNX and the EXPIREAT on line 61 are separate commands`
	rdb.ExpireAt(ctx, "mutex:billing", until)
}

// Near miss: SetArgs with Mode NX and a TTL.
func setArgsTTL(ctx context.Context, rdb *redis.Client, token string) {
	rdb.SetArgs(ctx, "mutex:billing", token, redis.SetArgs{Mode: "NX", TTL: lockTTL})
}

// A lock acquired with no expiry at all.
func permanent(ctx context.Context, rdb *redis.Client, id string) bool {
	return rdb.SetNX(ctx, "lock:"+id, "held", 0).Val() // want "lock key `\"lock:\" \\+ id` acquired with no expiry"
}

// Near miss: a one-time marker that is not a lock.
func marker(ctx context.Context, rdb *redis.Client, id string) bool {
	return rdb.SetNX(ctx, "processed:"+id, 1, 0).Val()
}

// Near miss: the expiry is a renewal in another function (plainpexpire's).
type leaderElection struct {
	rdb *redis.Client
	key string
	id  string
}

func (l *leaderElection) campaign(ctx context.Context) bool {
	return l.rdb.SetNX(ctx, l.key, l.id, 10*time.Second).Val()
}

func (l *leaderElection) renew(ctx context.Context) {
	l.rdb.Expire(ctx, l.key, 10*time.Second)
}

// A user type that embeds the client, key from a helper.
type store struct{ *redis.Client }

func lockKeyFor(id string) string { return "jobs:" + id }

func (s store) claim(ctx context.Context, id, token string, ttl time.Duration) {
	s.SetNX(ctx, lockKeyFor(id), token, 0) // want `SETNX and the EXPIRE on line 101 are separate commands`
	s.Expire(ctx, lockKeyFor(id), ttl)
}

// Near miss: the key variable is reassigned between the two commands.
func reassigned(ctx context.Context, rdb *redis.Client, a, b string) {
	key := "cache:" + a
	rdb.SetNX(ctx, key, 1, 0)
	key = "cache:" + b
	rdb.Expire(ctx, key, time.Minute)
}

// Suppressed with a reason.
func suppressed(ctx context.Context, rdb *redis.Client) {
	//locklint:ignore setnxexpire migration script, runs once under an operator
	rdb.SetNX(ctx, "lock:migrate", "1", 0)
	rdb.Expire(ctx, "lock:migrate", time.Hour)
}

// Not suppressed: an ignore directive needs a reason.
func noReason(ctx context.Context, rdb *redis.Client) {
	//locklint:ignore setnxexpire
	rdb.SetNX(ctx, "lock:migrate", "1", 0) // want `SETNX and the EXPIRE on line 123 are separate commands`
	rdb.Expire(ctx, "lock:migrate", time.Hour)
}

// Type parameters wrapping a client.
func generic[C redis.Cmdable](ctx context.Context, c C, key string, ttl time.Duration) {
	c.SetNX(ctx, key, "x", 0) // want `SETNX and the EXPIRE on line 129 are separate commands`
	c.Expire(ctx, key, ttl)
}

// The release of permanent's lock, in a function of its own.
func unlockPermanent(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Del(ctx, "lock:"+id)
}

// Near miss: a lock-named key taken once for good and released nowhere is
// an init guard, not a lock a dead holder leaves behind.
func initOnce(ctx context.Context, rdb *redis.Client, ns string) bool {
	return rdb.SetNX(ctx, ns+"_lock", "locked", 0).Val()
}
