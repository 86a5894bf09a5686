// Package idempotency is an API's idempotency store (RedeArmy's
// pkg/idempotency): Reserve takes a request's key with SETNX of an
// in-flight record, Load reads the record back and decodes it, Commit
// writes the response over it and Release deletes the reservation after
// a failed request. The keys hold records, not locks: nothing here is a
// finding. Its twin, TokenStore, keeps a bare token that nothing decodes,
// and its plain DEL still reports, as does a lock type's that decodes
// its holder's details.
package idempotency

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

type State string

const (
	InFlight  State = "in_flight"
	Committed State = "committed"
)

type Entry struct {
	State  State  `json:"s"`
	Status int    `json:"c,omitempty"`
	Body   []byte `json:"b,omitempty"`
}

func unmarshalEntry(data []byte) (Entry, bool) {
	var e Entry
	if err := json.Unmarshal(data, &e); err != nil {
		return Entry{}, false
	}
	return e, true
}

type Store interface {
	Load(ctx context.Context, key string) (Entry, bool, error)
	Reserve(ctx context.Context, key string, ttl time.Duration) (bool, error)
	Commit(ctx context.Context, key string, e Entry, ttl time.Duration) error
	Release(ctx context.Context, key string) error
}

type RedisStore struct{ client redis.Cmdable }

func NewRedisStore(c redis.Cmdable) *RedisStore { return &RedisStore{client: c} }

func (s *RedisStore) Load(ctx context.Context, key string) (Entry, bool, error) {
	data, err := s.client.Get(ctx, key).Bytes()
	if errors.Is(err, redis.Nil) {
		return Entry{}, false, nil
	}
	if err != nil {
		return Entry{}, false, err
	}
	e, ok := unmarshalEntry(data)
	return e, ok, nil
}

func (s *RedisStore) Reserve(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	data, err := json.Marshal(Entry{State: InFlight})
	if err != nil {
		return false, err
	}
	return s.client.SetNX(ctx, key, data, ttl).Result()
}

func (s *RedisStore) Commit(ctx context.Context, key string, e Entry, ttl time.Duration) error {
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return s.client.Set(ctx, key, data, ttl).Err()
}

// Silent: the undo of a failed request's reservation.
func (s *RedisStore) Release(ctx context.Context, key string) error {
	return s.client.Del(ctx, key).Err()
}

var _ Store = (*RedisStore)(nil)

// TokenStore is the twin: a reservation whose value is a bare token that
// its Holder returns as it is.
type TokenStore struct{ client redis.Cmdable }

func (s *TokenStore) Holder(ctx context.Context, key string) (string, error) {
	return s.client.Get(ctx, key).Result()
}

func (s *TokenStore) Reserve(ctx context.Context, key, token string, ttl time.Duration) (bool, error) {
	return s.client.SetNX(ctx, key, token, ttl).Result()
}

// Must report: a release of a key reserved with a token, with no owner
// check.
func (s *TokenStore) Release(ctx context.Context, key string) error {
	return s.client.Del(ctx, key).Err() // want "DEL of lock key `key`"
}

// JobLock is a lock type that decodes its holder's details for display:
// its name says lock, and its plain DEL still reports.
type JobLock struct{ client redis.Cmdable }

type holder struct {
	Host  string `json:"host"`
	Token string `json:"token"`
}

func (l *JobLock) Holder(ctx context.Context, key string) (holder, error) {
	data, err := l.client.Get(ctx, key).Bytes()
	if err != nil {
		return holder{}, err
	}
	var h holder
	err = json.Unmarshal(data, &h)
	return h, err
}

func (l *JobLock) Acquire(ctx context.Context, key string, h holder, ttl time.Duration) (bool, error) {
	data, err := json.Marshal(h)
	if err != nil {
		return false, err
	}
	return l.client.SetNX(ctx, key, data, ttl).Result()
}

// Must report.
func (l *JobLock) Release(ctx context.Context, key string) error {
	return l.client.Del(ctx, key).Err() // want "DEL of lock key `key`"
}
