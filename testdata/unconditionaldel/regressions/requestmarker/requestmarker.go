// Package requestmarker pins dedupe markers made for one request or
// event: order:request:lock:<request id> lets the first delivery of a
// request in and makes its duplicates return the first one's result; a
// payment event's dedupe key is taken by one helper and undone by another
// on a transient failure so that the sender's redelivery gets in. Only
// duplicates of the same request contend, so the DELs give nothing back
// to another holder, whatever word the key carries. The twins take a
// key per order, which every request on the order contends for.
package requestmarker

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis/v8"
	"github.com/google/uuid"
)

const requestLockPrefix = "order:request:lock:"

type Orders struct {
	rdb *redis.Client
}

// Create runs a create-order request once per request id.
// Near miss (silent): the request's own marker, deleted after its
// result is stored or when the order could not be submitted.
func (o *Orders) Create(ctx context.Context, requestID string) error {
	lockKey := requestLockPrefix + requestID
	ok, err := o.rdb.SetNX(ctx, lockKey, "processing", 24*time.Hour).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("duplicate request")
	}
	if err := o.submit(ctx, requestID); err != nil {
		o.release(ctx, lockKey)
		return err
	}
	o.release(ctx, lockKey)
	return nil
}

func (o *Orders) release(ctx context.Context, lockKey string) {
	o.rdb.Del(ctx, lockKey)
}

func (o *Orders) submit(ctx context.Context, id string) error { return nil }

func eventDedupeKey(eventID string) string { return "payment:event:" + eventID }

// Handle settles a payment event once.
// Near miss (silent): the event's dedupe key, undone on a transient
// failure so that the redelivery gets in.
func (o *Orders) Handle(ctx context.Context, eventID string) error {
	first, err := o.claimEvent(ctx, eventID)
	if err != nil || !first {
		return err
	}
	if err := o.submit(ctx, eventID); err != nil {
		o.releaseEvent(ctx, eventID)
		return err
	}
	return nil
}

func (o *Orders) claimEvent(ctx context.Context, eventID string) (bool, error) {
	return o.rdb.SetNX(ctx, eventDedupeKey(eventID), "1", 72*time.Hour).Result()
}

func (o *Orders) releaseEvent(ctx context.Context, eventID string) {
	o.rdb.Del(ctx, eventDedupeKey(eventID))
}

// Pay lets one payment of an order in at a time.
// Must report: every request on the order contends for its key.
func (o *Orders) Pay(ctx context.Context, orderID string) error {
	lockKey := "order:pay:lock:" + orderID
	ok, err := o.rdb.SetNX(ctx, lockKey, uuid.NewString(), 10*time.Second).Result()
	if err != nil || !ok {
		return errors.New("order busy")
	}
	defer o.rdb.Del(ctx, lockKey) // want "DEL of lock key `lockKey` without an owner check"
	return o.submit(ctx, orderID)
}

// Near miss's limit: a request's key whose holder the package checks
// before it deletes is a lock after all; its plain DEL elsewhere is
// reported.
func (o *Orders) Refund(ctx context.Context, requestID string) error {
	key := "refund:lock:" + requestID
	token := uuid.NewString()
	ok, err := o.rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return errors.New("refund busy")
	}
	if v, _ := o.rdb.Get(ctx, key).Result(); v != token {
		return errors.New("lost the refund lock")
	}
	o.rdb.Del(ctx, "refund:lock:"+requestID) // want "DEL of lock key"
	return nil
}
