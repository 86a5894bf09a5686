// Package service takes an auction's lock and defers its release under
// its context parameter, which it first derives for a tracing span (ctx,
// end := startSpan(ctx, ...)): the span's context is done when the
// caller's is, so the release runs under the caller's context all the
// same. The near misses detach the context before the release, or
// replace it with one that outlives the call.
package service

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type spanKey struct{}

// startSpan stands for a tracer's Start: a context carrying the span.
func startSpan(ctx context.Context, name string) (context.Context, func()) {
	return context.WithValue(ctx, spanKey{}, name), func() {}
}

type Service struct{ rdb *redis.Client }

func (s *Service) lock(ctx context.Context, key string) bool {
	ok, _ := s.rdb.SetNX(ctx, key, "locked", 5*time.Second).Result()
	return ok
}

func (s *Service) PlaceBid(ctx context.Context, auction string) error { // want PlaceBid:"defers a release under parameter 0 at service.go:36"
	ctx, end := startSpan(ctx, "service.PlaceBid")
	defer end()
	if !s.lock(ctx, "auction_lock:"+auction) {
		return nil
	}
	defer s.rdb.Del(ctx, "auction_lock:"+auction)
	return nil
}

func (s *Service) CloseAuction(ctx context.Context, auction string) error {
	ctx = context.WithoutCancel(ctx)
	if !s.lock(ctx, "auction_lock:"+auction) {
		return nil
	}
	defer s.rdb.Del(ctx, "auction_lock:"+auction)
	return nil
}

func (s *Service) Sweep(ctx context.Context, auction string) error {
	ctx = context.Background()
	if !s.lock(ctx, "auction_lock:"+auction) {
		return nil
	}
	defer s.rdb.Del(ctx, "auction_lock:"+auction)
	return nil
}
