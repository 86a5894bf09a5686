// Package quoterecord pins issue 32's shape 1 for the plain SET: a "rate
// lock" record stored under lock:quote:<id> with a plain SET and a TTL
// when a quote is issued, read when it is accepted and deleted with the
// quote. Nothing takes that key with NX, so the SET overwrites no holder:
// writing the record is the point. The twin is a real lock on the quote's
// acceptance taken with a plain SET: two acceptors both think they hold it.
package quoterecord

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Quote struct {
	ID   string  `json:"id"`
	Rate float64 `json:"rate"`
}

func rateLockKey(id string) string { return "lock:quote:" + id }

// Near miss (silent): the record of the rate the quote was given.
func Issue(ctx context.Context, rdb *redis.Client, q Quote, ttl time.Duration) error {
	b, err := json.Marshal(q)
	if err != nil {
		return err
	}
	return rdb.Set(ctx, rateLockKey(q.ID), b, ttl).Err()
}

func Consume(ctx context.Context, rdb *redis.Client, id string) (Quote, error) {
	var q Quote
	b, err := rdb.GetDel(ctx, rateLockKey(id)).Bytes()
	if err != nil {
		return q, err
	}
	return q, json.Unmarshal(b, &q)
}

// Must report: the acceptance lock is taken without NX.
func Accept(ctx context.Context, rdb *redis.Client, id string, settle func(Quote) error) error {
	key := "accept:lock:" + id
	if rdb.Exists(ctx, key).Val() == 1 {
		return nil
	}
	rdb.Set(ctx, key, uuid.NewString(), 10*time.Second) // want "SET of lock key `key` without NX overwrites whoever holds it"
	q, err := Consume(ctx, rdb, id)
	if err != nil {
		return err
	}
	return settle(q)
}
