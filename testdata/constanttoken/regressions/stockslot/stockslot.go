// Package stockslot pins permanent stock-slot markers: each DECR of an
// award's stock hands one caller one count, and the caller writes
// <award>_<count> with SETNX and no TTL, so that stock restored by hand
// cannot sell the same slot twice. Only the caller that saw the count
// names that key; it is meant to stay. The twin takes a lock per award
// with no TTL, which every caller contends for and a crash leaves held.
package stockslot

import (
	"context"
	"strconv"

	"github.com/go-redis/redis/v8"
)

type Stock struct {
	rdb *redis.Client
}

// Near miss (silent): a slot named by the count this caller was handed.
func (s *Stock) Take(ctx context.Context, award string) (bool, error) {
	left, err := s.rdb.Decr(ctx, "award:count:"+award).Result()
	if err != nil || left < 0 {
		return false, err
	}
	lockKey := "award:count:" + award + "_" + strconv.FormatInt(left, 10)
	return s.rdb.SetNX(ctx, lockKey, "lock", 0).Result()
}

// Near miss (silent): the same with a ticket from INCR.
func (s *Stock) Ticket(ctx context.Context, award string) (bool, error) {
	n := s.rdb.Incr(ctx, "award:sold:"+award).Val()
	return s.rdb.SetNX(ctx, "award:lock:"+award+":"+strconv.FormatInt(n, 10), 1, 0).Result()
}

// Must report: one lock per award, held for good by a caller that dies,
// given back by an owner check its constant passes for every holder.
func (s *Stock) Restock(ctx context.Context, award string, n int64) error {
	lockKey := "award:restock:lock:" + award
	ok, err := s.rdb.SetNX(ctx, lockKey, "lock", 0).Result() // want "non-unique token"
	if err != nil || !ok {
		return err
	}
	defer s.rdb.Eval(ctx, unlock, []string{lockKey}, "lock")
	return s.rdb.IncrBy(ctx, "award:count:"+award, n).Err()
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`
