// Package movedclaim pins a game's tile claims: LockTile takes
// "lock:tile:<x>,<y>" with SETNX of the entity's id and reports whether it
// did, and UnlockTile gives it back with a compare-and-delete script when
// the entity leaves, in whichever function moves it. A respawn that gives
// back the old tile and drops the new claim's reply writes the position
// whether or not another entity stands there. The near miss is a seen
// mark whose reply is dropped too: nothing gives it back behind an owner
// check (an operator clears it with a plain DEL), so it is a mark kept to
// its TTL, not a claim.
package movedclaim

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	rdb *redis.Client
	ctx = context.Background()
)

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

func tileKey(x, y int) string { return fmt.Sprintf("lock:tile:%d,%d", x, y) }

func LockTile(id string, x, y int) (bool, error) {
	return rdb.SetNX(ctx, tileKey(x, y), id, 0).Result()
}

func UnlockTile(id string, x, y int) error {
	return release.Run(ctx, rdb, []string{tileKey(x, y)}, id).Err()
}

func Respawn(id string, oldX, oldY, x, y int) {
	UnlockTile(id, oldX, oldY)
	LockTile(id, x, y) // want "result of `LockTile` discarded"
	rdb.HSet(ctx, id, "x", x, "y", y)
}

func Step(id string, oldX, oldY, x, y int) error {
	ok, err := LockTile(id, x, y)
	if err != nil || !ok {
		return fmt.Errorf("tile taken")
	}
	UnlockTile(id, oldX, oldY)
	return rdb.HSet(ctx, id, "x", x, "y", y).Err()
}

func seenKey(id string) string { return "seen:lock:" + id }

func MarkSeen(id string) (bool, error) {
	return rdb.SetNX(ctx, seenKey(id), 1, time.Hour).Result()
}

func ClearSeen(id string) { rdb.Del(ctx, seenKey(id)) }

func Greet(id string) {
	MarkSeen(id)
	rdb.Publish(ctx, "greetings", id)
}
