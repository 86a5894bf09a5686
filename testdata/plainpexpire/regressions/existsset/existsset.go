// Package existsset pins the held-out miss of a payment lock taken with
// an EXISTS and, when the key is absent, a plain SET in a second round
// trip (wayfare's InitiatePayment): two checkouts of one user that
// arrive together both find the key absent and both SET it, and both
// run. The near miss takes the key with SET NX.
package existsset

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrInProgress = errors.New("payment request is already being processed")

type Handler struct {
	cache    *redis.Client
	checkout func(ctx context.Context, user string) (string, error)
}

// Must report.
func (h *Handler) Pay(ctx context.Context, userID string) (string, error) {
	idempotencyKey := fmt.Sprintf("lock:payment:%s", userID)
	n, err := h.cache.Exists(ctx, idempotencyKey).Result()
	if err != nil {
		return "", err
	}
	if n > 0 {
		return "", ErrInProgress
	}
	if err := h.cache.Set(ctx, idempotencyKey, "locked", 2*time.Minute).Err(); err != nil { // want "SET of lock key"
		return "", err
	}
	url, err := h.checkout(ctx, userID)
	if err != nil {
		h.cache.Del(ctx, idempotencyKey)
		return "", err
	}
	return url, nil
}

// Near miss (silent).
func (h *Handler) PayNX(ctx context.Context, user string) (string, error) {
	idempotencyKey := fmt.Sprintf("lock:payment:%s", user)
	ok, err := h.cache.SetNX(ctx, idempotencyKey, "locked", 2*time.Minute).Result()
	if err != nil {
		return "", err
	}
	if !ok {
		return "", ErrInProgress
	}
	url, err := h.checkout(ctx, user)
	if err != nil {
		h.cache.Del(ctx, idempotencyKey)
		return "", err
	}
	return url, nil
}

// Near miss (silent): the key names one request, as its client sent it;
// only that request's retries contend.
func (h *Handler) PayOnce(ctx context.Context, header string) (string, error) {
	idempotencyKey := fmt.Sprintf("payment:lock:%s", header)
	n, err := h.cache.Exists(ctx, idempotencyKey).Result()
	if err != nil || n > 0 {
		return "", ErrInProgress
	}
	if err := h.cache.Set(ctx, idempotencyKey, "locked", 2*time.Minute).Err(); err != nil {
		return "", err
	}
	return h.checkout(ctx, header)
}
