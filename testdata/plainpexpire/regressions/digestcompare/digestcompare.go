// Package digestcompare pins renewals that compare the holder's value by
// its digest (SET ... IFDEQ, Redis 8.4): go-redis's SetIFDEQ, SetArgs with
// Mode "IFDEQ", and the same words sent raw through redigo. Each sets the
// TTL only while the key still holds this caller's token, as SET IFEQ
// does. The near misses renew whoever holds the key.
package digestcompare

import (
	"context"
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
)

type Lease struct {
	rdb   *goredis.Client
	key   string
	token string
}

func (l *Lease) Acquire(ctx context.Context, ttl time.Duration) (bool, error) {
	return l.rdb.SetNX(ctx, l.key, l.token, ttl).Result()
}

func (l *Lease) Extend(ctx context.Context, ttl time.Duration) error {
	return l.rdb.SetIFDEQ(ctx, l.key, l.token, digest(l.token), ttl).Err()
}

func (l *Lease) ExtendArgs(ctx context.Context, ttl time.Duration) error {
	return l.rdb.SetArgs(ctx, l.key, l.token, goredis.SetArgs{Mode: "IFDEQ", MatchDigest: digest(l.token), TTL: ttl}).Err()
}

func (l *Lease) Release(ctx context.Context) error {
	return l.rdb.DelExArgs(ctx, l.key, goredis.DelExArgs{Mode: "IFDEQ", MatchDigest: digest(l.token)}).Err()
}

// Must report: no condition at all, the TTL goes to whoever holds it.
func (l *Lease) ExtendBlind(ctx context.Context, ttl time.Duration) error {
	return l.rdb.SetArgs(ctx, l.key, l.token, goredis.SetArgs{TTL: ttl}).Err() // want `SET of lock key .l\.key. without NX or IFEQ overwrites whoever holds it`
}

// IFNE sets when the value differs: not an owner check, but not a plain
// overwrite either; the model does not know what the caller meant.
func (l *Lease) ExtendUnlessStale(ctx context.Context, stale string, ttl time.Duration) error {
	return l.rdb.SetArgs(ctx, l.key, l.token, goredis.SetArgs{Mode: "IFNE", MatchValue: stale, TTL: ttl}).Err()
}

func takeLock(conn redis.Conn, name, token string) (bool, error) {
	reply, err := redis.String(conn.Do("SET", "lock:"+name, token, "NX", "PX", 30000))
	return reply == "OK", err
}

func extendLock(conn redis.Conn, name, token string) error {
	_, err := conn.Do("SET", "lock:"+name, token, "IFDEQ", fmt.Sprintf("%016x", digest(token)), "PX", 30000)
	return err
}

// Must report: the raw form without the condition.
func extendLockBlind(conn redis.Conn, name, token string) error {
	_, err := conn.Do("SET", "lock:"+name, token, "PX", 30000) // want `SET of lock key .\"lock:\" \+ name. without NX overwrites whoever holds it`
	return err
}

// digest stands for the XXH3 hash that helper.DigestString computes.
func digest(token string) uint64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(token); i++ {
		h = (h ^ uint64(token[i])) * 1099511628211
	}
	return h
}
