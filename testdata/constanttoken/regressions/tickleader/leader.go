// Package tickleader pins the held-out false report of a tick-scoped
// leader marker (RedeArmy's RedisLeaderElection): each tick takes the
// key in a field with SET NX PX of "1", logs the key when the take
// fails, and never gives it back; the winner of a window is whoever
// took it first, and nothing compares the value. Silent. The twin logs
// the key the same way, but its Close deletes the key after comparing
// the shared constant: reported.
package tickleader

import (
	"context"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"
)

type Election struct {
	rc  *redis.Client
	key string
	ttl time.Duration
	log *slog.Logger
}

func NewElection(rc *redis.Client, key string, ttl time.Duration, log *slog.Logger) *Election {
	return &Election{rc: rc, key: key, ttl: ttl, log: log}
}

func (e *Election) TryAcquire(ctx context.Context) bool {
	val, err := e.rc.SetArgs(ctx, e.key, "1", redis.SetArgs{Mode: "NX", TTL: e.ttl}).Result()
	if err != nil && err != redis.Nil {
		e.log.Warn("leader election: SET NX failed", slog.String("key", e.key), slog.Any("err", err))
		return false
	}
	return val == "OK"
}

// Close releases nothing: the key lapses with its window.
func (e *Election) Close(context.Context) {}

const release = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

type Leader struct {
	rc  *redis.Client
	key string
	log *slog.Logger
}

func (l *Leader) TryAcquire(ctx context.Context) bool {
	val, err := l.rc.SetArgs(ctx, l.key, "1", redis.SetArgs{Mode: "NX", TTL: time.Minute}).Result() // want "lock key `l.key` acquired with a non-unique token"
	if err != nil && err != redis.Nil {
		l.log.Warn("leader election: SET NX failed", slog.String("key", l.key))
		return false
	}
	return val == "OK"
}

func (l *Leader) Close(ctx context.Context) {
	l.rc.Eval(ctx, release, []string{l.key}, "1")
}
