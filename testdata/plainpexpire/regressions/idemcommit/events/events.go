// Package events keeps one record per delivered webhook event: Claim
// writes a processing record with SETNX, Status decodes the record for
// the caller and Finish writes the done record over it with a plain SET.
// The record's next state is no lock's renewal (RedeArmy's idempotency
// Commit). Its twin, Lease, keeps a bare token and renews it with a plain
// SET: that still reports.
package events

import (
	"context"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"
)

type Record struct {
	Done   bool   `json:"done"`
	Result string `json:"result,omitempty"`
}

type Log struct{ rdb *redis.Client }

func (l *Log) Status(ctx context.Context, key string) (*Record, error) {
	raw, err := l.rdb.Get(ctx, key).Result()
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.NewDecoder(bytesReader(raw)).Decode(&r); err != nil {
		return nil, err
	}
	return &r, nil
}

func (l *Log) Claim(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	data, _ := json.Marshal(Record{})
	return l.rdb.SetNX(ctx, key, data, ttl).Result()
}

func (l *Log) Finish(ctx context.Context, key, result string, ttl time.Duration) error {
	data, _ := json.Marshal(Record{Done: true, Result: result})
	return l.rdb.Set(ctx, key, data, ttl).Err()
}

// Lease is the twin: a token taken with SETNX and renewed by a plain
// SET, which overwrites whoever took the key after the lease lapsed.
type Lease struct{ rdb *redis.Client }

func (l *Lease) Holder(ctx context.Context, key string) (string, error) {
	return l.rdb.Get(ctx, key).Result()
}

func (l *Lease) Take(ctx context.Context, key, token string, ttl time.Duration) (bool, error) {
	return l.rdb.SetNX(ctx, key, token, ttl).Result()
}

func (l *Lease) Extend(ctx context.Context, key, token string, ttl time.Duration) error {
	return l.rdb.Set(ctx, key, token, ttl).Err() // want `SET of lock key .key. \(key of .*Extend`
}
