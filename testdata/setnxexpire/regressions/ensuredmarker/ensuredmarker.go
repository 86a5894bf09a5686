// Package ensuredmarker pins a login's session marker: SETNX of
// "jwt:<uid>" whose reply nobody reads, then an EXPIRE with the token's
// lifetime that runs whatever the SETNX said. Each login makes sure the
// marker exists and re-expires it; the handlers test it for existence.
// It takes nothing: silent. The twins read the SETNX's reply before the
// EXPIRE, or take a key named for a lock: split acquires, reported.
package ensuredmarker

import (
	"context"
	"strconv"

	"github.com/redis/go-redis/v9"
	zredis "github.com/zeromicro/go-zero/core/stores/redis"
)

const prefix = "jwt:"

func SessionToRedis(ctx context.Context, rds *zredis.Redis, uid int64, exp int) error {
	key := prefix + strconv.FormatInt(uid, 10)
	_, err := rds.SetnxCtx(ctx, key, "1")
	if err != nil {
		return err
	}
	return rds.ExpireCtx(ctx, key, exp)
}

func SessionInRedis(ctx context.Context, rds *zredis.Redis, uid int64) (bool, error) {
	return rds.ExistsCtx(ctx, prefix+strconv.FormatInt(uid, 10))
}

func Presence(ctx context.Context, rdb *redis.Client, user string) error {
	if err := rdb.SetNX(ctx, "presence:"+user, "1", 0).Err(); err != nil {
		return err
	}
	return rdb.Expire(ctx, "presence:"+user, 300).Err()
}

// Must report: the reply decides who goes on, so the SETNX is a take.
func Claim(ctx context.Context, rds *zredis.Redis, job string, ttl int) (bool, error) {
	key := "job:" + job
	ok, err := rds.SetnxCtx(ctx, key, "1") // want "SETNX and the EXPIRE on line \\d+ are separate commands"
	if err != nil || !ok {
		return false, err
	}
	return true, rds.ExpireCtx(ctx, key, ttl)
}

// Must report: a lock's key, its reply ignored.
func Guard(ctx context.Context, rds *zredis.Redis, job string, ttl int, work func()) error {
	key := "lock:" + job
	if _, err := rds.SetnxCtx(ctx, key, "1"); err != nil { // want "SETNX and the EXPIRE on line \\d+ are separate commands"
		return err
	}
	if err := rds.ExpireCtx(ctx, key, ttl); err != nil {
		return err
	}
	defer rds.DelCtx(ctx, key)
	work()
	return nil
}
