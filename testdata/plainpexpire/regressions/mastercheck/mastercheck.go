// Package mastercheck pins a master election whose take, on a miss, reads
// the key and, when it holds this node's id, renews it with a plain
// EXPIRE: the GET and the EXPIRE are two round trips, and a lease that
// lapses between them is renewed for the next master. The near miss
// renews with a compare-and-expire script.
package mastercheck

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Master struct {
	rdb *redis.Client
	id  string
}

func NewMaster(rdb *redis.Client) *Master {
	return &Master{rdb: rdb, id: fmt.Sprintf("%s%d", uuid.New().String(), time.Now().Nanosecond())}
}

// Must report: GET-compared, then a plain EXPIRE.
func (r *Master) TryAcquireMaster(ctx context.Context, MasterLockKey string, ttl time.Duration) bool {
	success, err := r.rdb.SetNX(ctx, MasterLockKey, r.id, ttl).Result()
	if err != nil {
		return false
	}
	if !success {
		val, _ := r.rdb.Get(ctx, MasterLockKey).Result()
		if val == r.id {
			r.rdb.Expire(ctx, MasterLockKey, ttl) // want "GET on line 33 and this EXPIRE of lock key `MasterLockKey` are two round trips"
			return true
		}
	}
	return success
}

var renew = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`)

// Near miss (silent): the check and the renewal are one script.
func (r *Master) TryAcquireMasterScript(ctx context.Context, MasterLockKey string, ttl time.Duration) bool {
	success, err := r.rdb.SetNX(ctx, MasterLockKey, r.id, ttl).Result()
	if err != nil {
		return false
	}
	if !success {
		n, _ := renew.Run(ctx, r.rdb, []string{MasterLockKey}, r.id, ttl.Milliseconds()).Int()
		return n == 1
	}
	return success
}
