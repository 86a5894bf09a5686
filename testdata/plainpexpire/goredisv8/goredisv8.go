package goredisv8

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

// Lease is a lock handle of the kind many services write by hand.
type Lease struct {
	client redis.UniversalClient
	name   string
	id     string
	ttl    time.Duration
}

func lockName(resource string) string { return "locks/" + resource }

func NewLease(c redis.UniversalClient, resource, id string) *Lease {
	return &Lease{client: c, name: lockName(resource), id: id, ttl: 20 * time.Second}
}

func (l *Lease) Acquire(ctx context.Context) (bool, error) {
	return l.client.SetNX(ctx, l.name, l.id, l.ttl).Result()
}

// Result gives the reply too, which the library's Refresh does not: the
// finding names the adapter and has no fix.
func (l *Lease) Renew(ctx context.Context) (bool, error) {
	return l.client.PExpire(ctx, l.name, l.ttl).Result() // want "PEXPIRE of lock key `l\\.name` without an owner check; renew with `lock\\.Refresh` via `fixgoredis8\\.Client` \\(SET IFEQ or compare-and-PEXPIRE\\)$"
}

// Only the error is used: the fix renews through the core and the
// go-redis v8 adapter.
func (l *Lease) Extend(ctx context.Context) error {
	return l.client.PExpire(ctx, l.name, l.ttl).Err() // want "PEXPIRE of lock key `l\\.name` without an owner check; renew with `lock\\.Refresh` via `fixgoredis8\\.Client`"
}

func (l *Lease) RenewAt(ctx context.Context, at time.Time) error {
	return l.client.PExpireAt(ctx, l.name, at).Err() // want "PEXPIREAT of lock key `l\\.name` without an owner check"
}

// Near miss: a cache entry's TTL is refreshed on read.
func (l *Lease) touchCache(ctx context.Context, key string) {
	l.client.Expire(ctx, "cache:"+key, time.Minute)
}

// Near miss: renewal through EVAL.
func (l *Lease) RenewChecked(ctx context.Context) (bool, error) {
	n, err := l.client.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`,
		[]string{l.name}, l.id, l.ttl.Milliseconds()).Int()
	return n == 1, err
}
