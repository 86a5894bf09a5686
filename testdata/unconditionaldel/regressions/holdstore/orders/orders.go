// Package orders confirms a payment under a lock taken through the
// store's Hold (SET NX with a 30 s TTL) and dropped with the store's plain
// Delete, both through the service's own interface: a confirmation that
// outlives its lease deletes the lock of the request that took it next.
package orders

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"locklint.test/unconditionaldel/regressions/holdstore/ports"
	"locklint.test/unconditionaldel/regressions/holdstore/store"
)

type Service struct {
	cache ports.Cacher
	kv    *store.Store
	count ports.Counter
}

// Must report: the release is a plain DEL, through the interface.
func (s *Service) Confirm(ctx context.Context, ref string, confirm func() error) error {
	lockKey := fmt.Sprintf("lock:payment:%s", ref)
	if err := s.cache.Hold(ctx, lockKey, []byte(ref), redis.SetArgs{Mode: "NX", TTL: 30 * time.Second}); err != nil {
		return nil
	}
	defer s.cache.Delete(ctx, lockKey) // want "DEL of lock key `lockKey` without an owner check"
	return confirm()
}

// Must report: the same through the implementation.
func (s *Service) Reserve(ctx context.Context, table string, book func() error) error {
	lockKey := "lock:reservation:" + table
	if err := s.kv.Hold(ctx, lockKey, table, redis.SetArgs{Mode: "NX", TTL: 2 * time.Minute}); err != nil {
		return err
	}
	defer s.kv.Delete(ctx, lockKey) // want "DEL of lock key `lockKey` without an owner check"
	return book()
}

// Near miss (silent): the same Delete on cache keys.
func (s *Service) Evict(ctx context.Context, ref string) error {
	return s.cache.Delete(ctx, "cache:payment:"+ref, "cache:order:"+ref)
}

// Near miss (silent): an interface that is no port deletes a key named
// for a lock; what it sends is not known.
func (s *Service) Reset(ctx context.Context, ref string) error {
	return s.count.Delete(ctx, "lock:payment:"+ref)
}
