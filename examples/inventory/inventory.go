// Package inventory reserves stock for orders; a per-SKU lock serializes
// the read-modify-write of the stock count.
package inventory

import (
	"context"
	"crypto/rand"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locklint/locklint/analyzer/fix"
)

// ErrOutOfStock is returned when the SKU cannot cover the order.
var ErrOutOfStock = errors.New("inventory: out of stock")

// Store keeps stock counts in Redis.
type Store struct {
	rdb *redis.Client
}

// NewStore returns a store over rdb.
func NewStore(rdb *redis.Client) *Store { return &Store{rdb: rdb} }

func skuLock(sku string) string  { return "inventory:{" + sku + "}:lock" }
func skuStock(sku string) string { return "inventory:{" + sku + "}:stock" }

// ReserveNaive retries until it holds the lock, then releases with a
// GET-compare-DEL.
func (s *Store) ReserveNaive(ctx context.Context, sku string, n int64) error {
	token := rand.Text()
	attempts := 0
	for !s.rdb.SetNX(ctx, skuLock(sku), token, 10*time.Second).Val() { // BUG(unboundedretry): counts attempts but never gives up
		attempts++
		time.Sleep(50 * time.Millisecond)
	}
	defer func() {
		if s.rdb.Get(ctx, skuLock(sku)).Val() == token {
			s.rdb.Del(ctx, skuLock(sku)) // BUG(unconditionaldel): the lock can change hands between the GET and the DEL
		}
	}()
	return s.take(ctx, sku, n)
}

// Reserve is the correct version: a fenced lock with a bounded wait, and
// the fence checked by the write itself.
func (s *Store) Reserve(ctx context.Context, sku string, n int64) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	l, err := fix.Obtain(ctx, s.rdb, skuLock(sku), 10*time.Second, fix.WithFencing())
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	return s.take(l.Context(), sku, n)
}

// ReserveBounded is a hand-rolled loop that is correct: it stops at the
// context's deadline.
func (s *Store) ReserveBounded(ctx context.Context, sku string, n int64) error {
	token := rand.Text()
	for {
		if s.rdb.SetNX(ctx, skuLock(sku), token, 10*time.Second).Val() {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	defer fix.Release(ctx, s.rdb, skuLock(sku), token)
	return s.take(ctx, sku, n)
}

func (s *Store) take(ctx context.Context, sku string, n int64) error {
	left, err := s.rdb.DecrBy(ctx, skuStock(sku), n).Result()
	if err != nil {
		return err
	}
	if left < 0 {
		s.rdb.IncrBy(ctx, skuStock(sku), n)
		return ErrOutOfStock
	}
	return nil
}
