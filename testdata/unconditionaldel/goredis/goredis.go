package goredis

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Acquire and release in one function: the token is known, so the fix
// rewrites the DEL into fix.Release.
func rebuildFeed(ctx context.Context, rdb *redis.Client, token string) error {
	ok, err := rdb.SetNX(ctx, "lock:feed", token, 30*time.Second).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer rdb.Del(ctx, "lock:feed") // want "DEL of lock key `\"lock:feed\"` without an owner check; release with `fix\\.Release` \\(DELEX IFEQ or compare-and-delete\\)$"
	return nil
}

// The release returns the DEL's error.
func withErr(ctx context.Context, rdb redis.UniversalClient, id, token string) error {
	key := "jobs:" + id + ":lock"
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return nil
	}
	return rdb.Del(ctx, key).Err() // want "DEL of lock key `key` without an owner check"
}

// Near miss: DEL of a cache key.
func invalidate(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Del(ctx, "cache:user:"+id)
	rdb.Unlink(ctx, fmt.Sprintf("session:%s", id))
}

// Near miss: "block" and "clock" are not lock words.
func blocklist(ctx context.Context, rdb *redis.Client, ip string) {
	rdb.Del(ctx, "blocklist:"+ip, "clock-skew:"+ip)
}

// UNLINK in a deferred closure, key from a helper.
func mutexKey(name string) string { return fmt.Sprintf("mutex:%s", name) }

func deferredClosure(ctx context.Context, rdb *redis.Client, name string) {
	defer func() {
		rdb.Unlink(ctx, mutexKey(name)) // want "UNLINK of lock key `mutexKey\\(name\\)` without an owner check"
	}()
}

// GET-compare-then-DEL is two round trips.
func getCompareDel(ctx context.Context, rdb *redis.Client, key, token string) {
	if rdb.Get(ctx, key).Val() == token {
		rdb.Del(ctx, key) // want "GET on line 54 and this DEL of lock key `key` are two round trips"
	}
}

// Near miss: the same compare, inside WATCH with the DEL queued in the
// transaction: EXEC aborts if the key changed.
func watched(ctx context.Context, rdb *redis.Client, key, token string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		if tx.Get(ctx, key).Val() != token {
			return nil
		}
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Del(ctx, key)
			return nil
		})
		return err
	}, key)
}

// The same WATCH, but the DEL goes through the outer client: not atomic.
func watchedOuter(ctx context.Context, rdb *redis.Client, key, token string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		if tx.Get(ctx, key).Val() != token {
			return nil
		}
		return rdb.Del(ctx, key).Err() // want "GET on line 77 and this DEL of lock key `key` are two round trips"
	}, key)
}

// A lock type: the key in a field, the token stored by another method.
type RedisLock struct {
	rdb   *redis.Client
	key   string
	token string
}

func (l *RedisLock) Lock(ctx context.Context) bool {
	return l.rdb.SetNX(ctx, l.key, l.token, 10*time.Second).Val()
}

func (l *RedisLock) Unlock(ctx context.Context) error {
	return l.rdb.Del(ctx, l.key).Err() // want "DEL of lock key `l\\.key` without an owner check"
}

// Near miss: release through a Lua compare-and-delete script.
var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func (l *RedisLock) SafeUnlock(ctx context.Context) error {
	return release.Run(ctx, l.rdb, []string{l.key}, l.token).Err()
}

// Near miss: DELEX IFEQ (Redis 8.4+).
func delex(ctx context.Context, rdb *redis.Client, key, token string) error {
	return rdb.DelExArgs(ctx, "lock:"+key, redis.DelExArgs{Mode: "IFEQ", MatchValue: token}).Err()
}

// DEL inside a pipeline of a lock key.
func pipelined(ctx context.Context, rdb *redis.Client, ids []string) {
	pipe := rdb.Pipeline()
	for _, id := range ids {
		pipe.Del(ctx, "lease:"+id) // want "DEL of lock key `\"lease:\" \\+ id` without an owner check"
	}
	pipe.Exec(ctx)
}

// Not a lock word by name, but acquired with SETNX in the same function.
func acquiredHere(ctx context.Context, rdb *redis.Client, id, token string) {
	key := "dedupe:" + id
	if rdb.SetNX(ctx, key, token, time.Minute).Val() {
		rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	}
}

// Suppressed with a reason.
func adminReset(ctx context.Context, rdb *redis.Client, name string) {
	rdb.Del(ctx, "lock:"+name) //locklint:ignore unconditionaldel operator tool that force-clears a stuck lock
}

// Leader election: "leaderboard" is not a leader key.
func resetBoard(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, "leaderboard:weekly")
}

func resign(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, "service:leader") // want "DEL of lock key `\"service:leader\"` without an owner check"
}

// The waiters of a lock live next to it; clearing them is no release.
func clearWaiters(ctx context.Context, rdb *redis.Client, job string) {
	rdb.Del(ctx, "lock:"+job+":waiters")
	rdb.Del(ctx, "lock:{job}:queue")
}

// A lock taken with a constant: a rewrite to an owner-checked release
// would compare "1", which every holder stores, so no fix is offered;
// the finding's second place says to take the lock with fix.Obtain.
func refundOnce(ctx context.Context, rdb *redis.Client, invoice string, refund func()) {
	key := "lock:refund:" + invoice
	if !rdb.SetNX(ctx, key, "1", 30*time.Second).Val() {
		return
	}
	defer rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check; release with `fix\\.Release`"
	refund()
}
