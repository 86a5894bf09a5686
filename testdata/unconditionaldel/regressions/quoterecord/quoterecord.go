// Package quoterecord pins issue 32's shape 1, a "rate lock" record: the
// rate a quote was given is stored under lock:quote:<id> with a plain SET
// and a TTL, read back when the customer accepts, and deleted with the
// quote it belongs to. Nothing takes that key exclusively and no section
// runs while it is held: the DEL consumes a value, it releases no lock.
// The twin is a mutex: accepting a quote takes a key with SET NX and a
// token, and drops it with a plain DEL that removes whoever holds it now.
package quoterecord

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Quote struct {
	ID     string  `json:"id"`
	Pair   string  `json:"pair"`
	Rate   float64 `json:"rate"`
	Amount int64   `json:"amount"`
}

type Quotes struct {
	rdb *redis.Client
	ttl time.Duration
}

func rateLockKey(id string) string { return "lock:quote:" + id }

// Issue locks the rate for the quote's lifetime: a record, not a mutex.
func (q *Quotes) Issue(ctx context.Context, quote Quote) error {
	b, err := json.Marshal(quote)
	if err != nil {
		return err
	}
	return q.rdb.Set(ctx, rateLockKey(quote.ID), b, q.ttl).Err()
}

// Consume reads the locked rate and deletes it with the quote.
// Near miss (silent): the DEL consumes the record that Issue wrote.
func (q *Quotes) Consume(ctx context.Context, id string) (Quote, error) {
	var quote Quote
	b, err := q.rdb.Get(ctx, rateLockKey(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return quote, errors.New("quote expired")
	}
	if err != nil {
		return quote, err
	}
	if err := json.Unmarshal(b, &quote); err != nil {
		return quote, err
	}
	q.rdb.Del(ctx, rateLockKey(id), "quote:"+id)
	return quote, nil
}

// Accept serializes acceptance of one quote with a real mutex.
// Must report: taken with NX and a token, released with a plain DEL.
func (q *Quotes) Accept(ctx context.Context, id string, settle func(Quote) error) error {
	key := "mutex:quote:" + id
	ok, err := q.rdb.SetNX(ctx, key, uuid.NewString(), 10*time.Second).Result()
	if err != nil || !ok {
		return errors.New("quote is being accepted")
	}
	defer q.rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	quote, err := q.Consume(ctx, id)
	if err != nil {
		return err
	}
	return settle(quote)
}
