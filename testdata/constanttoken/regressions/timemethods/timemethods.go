// Package timemethods pins issue 32's miss of clock tokens read through
// time.Time methods: Format, String and MarshalText give the instant as
// text, which two acquisitions in one clock tick share and anyone can
// guess, as time.Now().UnixNano() does. Each lock is released by a script
// that compares the token. The near miss draws the token from uuid.
package timemethods

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

func run(ctx context.Context, rdb *redis.Client, key string, token any, work func()) {
	defer release.Run(ctx, rdb, []string{key}, token)
	work()
}

// Must report: the token is the clock formatted with a layout.
func Settle(ctx context.Context, rdb *redis.Client, account string, work func()) {
	token := time.Now().Format(time.RFC3339Nano)
	if !rdb.SetNX(ctx, "lock:settle:"+account, token, time.Minute).Val() { // want "lock key `\"lock:settle:\" \\+ account` acquired with a non-unique token \\(`time\\.Now`\\)"
		return
	}
	run(ctx, rdb, "lock:settle:"+account, token, work)
}

// Must report: the token is the clock's String.
func Payout(ctx context.Context, rdb *redis.Client, batch string, work func()) {
	token := time.Now().String()
	if !rdb.SetNX(ctx, "lock:payout:"+batch, token, time.Minute).Val() { // want "lock key `\"lock:payout:\" \\+ batch` acquired with a non-unique token \\(`time\\.Now`\\)"
		return
	}
	run(ctx, rdb, "lock:payout:"+batch, token, work)
}

// Must report: the token is the clock marshalled as text.
func Export(ctx context.Context, rdb *redis.Client, table string, work func()) {
	token, _ := time.Now().UTC().MarshalText()
	if !rdb.SetNX(ctx, "lock:export:"+table, token, time.Minute).Val() { // want "lock key `\"lock:export:\" \\+ table` acquired with a non-unique token \\(`time\\.Now`\\)"
		return
	}
	run(ctx, rdb, "lock:export:"+table, token, work)
}

// Near miss (silent): a random token per acquisition.
func Archive(ctx context.Context, rdb *redis.Client, table string, work func()) {
	token := uuid.NewString()
	if !rdb.SetNX(ctx, "lock:archive:"+table, token, time.Minute).Val() {
		return
	}
	run(ctx, rdb, "lock:archive:"+table, token, work)
}
