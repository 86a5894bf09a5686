// Package deferredundo pins a dedupe key given back by a deferred
// function only when the function fails: a payment callback takes
// callback:<order> with SETNX, and if the settlement then returns an
// error the deferred function deletes the key so that the provider's
// retry is processed; on success the key stays, the record that the
// callback was handled. The near misses are locks: one deleted by a
// deferred function whatever the outcome, one deleted on success too.
package deferredundo

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

type Service struct{ rdb *redis.Client }

// Silent: the delete runs only when the callback failed.
func (s *Service) HandleCallback(ctx context.Context, order string) (resp string, err error) {
	key := "callback:" + order
	taken := false
	defer func() {
		if err != nil && taken {
			_ = s.rdb.Del(context.Background(), key).Err()
		}
	}()
	ok, err := s.rdb.SetNX(ctx, key, 1, 24*time.Hour).Result()
	if err != nil {
		return "", err
	}
	if !ok {
		return "success", nil
	}
	taken = true
	if err := s.settle(ctx, order); err != nil {
		return "", err
	}
	return "success", nil
}

// Must report: the deferred function deletes the lock on every return.
func (s *Service) Settle(ctx context.Context, order string) (err error) {
	key := "lock:settle:" + order
	ok, err := s.rdb.SetNX(ctx, key, 1, 30*time.Second).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, errors.New("settle failed"))
		}
		_ = s.rdb.Del(context.Background(), key).Err() // want "DEL of lock key `key` without an owner check"
	}()
	return s.settle(ctx, order)
}

// Must report both: the key is also deleted on success, so the deferred
// delete is a lock's release too.
func (s *Service) Refund(ctx context.Context, order string) (err error) {
	key := "lock:refund:" + order
	ok, err := s.rdb.SetNX(ctx, key, 1, 30*time.Second).Result()
	if err != nil || !ok {
		return errors.New("busy")
	}
	defer func() {
		if err != nil {
			_ = s.rdb.Del(context.Background(), key).Err() // want "DEL of lock key `key` without an owner check"
		}
	}()
	if err = s.settle(ctx, order); err != nil {
		return err
	}
	return s.rdb.Del(ctx, key).Err() // want "DEL of lock key `key` without an owner check"
}

func (s *Service) settle(ctx context.Context, order string) error { return ctx.Err() }
