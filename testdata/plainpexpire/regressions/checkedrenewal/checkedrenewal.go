// Package checkedrenewal pins a renewal guarded by a GET and a compare of
// the same key in the same function, on a key whose name says nothing of
// a lock: the hand-rolled owner check makes it a lock's renewal, done in
// two round trips. A session written with a plain SET, read, compared and
// extended the same way, is a value, not a lock.
package checkedrenewal

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const hold = 3 * time.Minute

func slotKey(id int64) string { return fmt.Sprintf("addr:slot:%d", id) }

func claim(ctx context.Context, rdb *redis.Client, id int64, owner string) bool {
	return rdb.SetNX(ctx, slotKey(id), owner, hold).Val()
}

func keep(ctx context.Context, rdb *redis.Client, id int64, owner string) bool {
	if rdb.Get(ctx, slotKey(id)).Val() != owner {
		return false
	}
	rdb.Expire(ctx, slotKey(id), hold) // want "GET on line 25 and this EXPIRE of lock key `slotKey\\(id\\)` are two round trips"
	return true
}

func sessionKey(sid string) string { return "session:" + sid }

func login(ctx context.Context, rdb *redis.Client, sid, user string) {
	rdb.Set(ctx, sessionKey(sid), user, time.Hour)
}

func touch(ctx context.Context, rdb *redis.Client, sid, user string) bool {
	if rdb.Get(ctx, sessionKey(sid)).Val() != user {
		return false
	}
	rdb.Expire(ctx, sessionKey(sid), time.Hour)
	return true
}
