// Package dedupenack pins issue 32's shape 4, per-item dedupe keys: each
// outbox row is claimed with SETNX (its id as key, a TTL of a day) before
// it is published, and the key is deleted only when the broker NACKs the
// message or the confirm times out, so that the next sweep retries it. On
// a confirm the key stays until its TTL: it records "sent", and the DELs
// undo a claim that did not happen; none releases a lock held across work.
// The twin holds the same claim only while it publishes and drops it on
// every path: a lock, and its plain DEL removes whoever holds it now.
package dedupenack

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Row struct {
	ID      string
	Payload []byte
}

type Confirm struct{ Ack bool }

type Broker interface {
	Publish(ctx context.Context, body []byte) (<-chan Confirm, error)
}

type Relay struct {
	rdb    *redis.Client
	broker Broker
}

func sentKey(id string) string { return "outbox:sent:" + id }

// Near miss (silent): the DELs undo a claim the broker refused.
func (r *Relay) Sweep(ctx context.Context, rows []Row) {
	for _, row := range rows {
		fresh, err := r.rdb.SetNX(ctx, sentKey(row.ID), 1, 24*time.Hour).Result()
		if err != nil || !fresh {
			continue
		}
		confirms, err := r.broker.Publish(ctx, row.Payload)
		if err != nil {
			r.rdb.Del(ctx, sentKey(row.ID))
			continue
		}
		select {
		case c := <-confirms:
			if !c.Ack {
				r.rdb.Del(ctx, sentKey(row.ID))
			}
		case <-time.After(5 * time.Second):
			r.rdb.Del(ctx, sentKey(row.ID))
		}
	}
}

// Must report: the claim is held while publishing and dropped on every path.
func (r *Relay) PublishOne(ctx context.Context, row Row) error {
	key := "outbox:publishing:" + row.ID
	ok, err := r.rdb.SetNX(ctx, key, uuid.NewString(), time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer r.rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	confirms, err := r.broker.Publish(ctx, row.Payload)
	if err != nil {
		return err
	}
	<-confirms
	return nil
}

// Must report: the lock leaks on an early return, but the path that
// falls through gives it back, so it is held across the work.
func (r *Relay) PublishLeaky(ctx context.Context, row Row) error {
	key := "outbox:leaky:" + row.ID
	ok, err := r.rdb.SetNX(ctx, key, uuid.NewString(), time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	confirms, err := r.broker.Publish(ctx, row.Payload)
	if err != nil {
		return err
	}
	<-confirms
	r.rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	return nil
}

// Must report: the work runs in the branch the take succeeded in, and
// that branch gives the key back.
func (r *Relay) PublishIfFree(ctx context.Context, row Row) {
	key := "outbox:iffree:" + row.ID
	if ok, _ := r.rdb.SetNX(ctx, key, uuid.NewString(), time.Minute).Result(); ok {
		r.broker.Publish(ctx, row.Payload)
		r.rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	}
}

// Must report: every way out of the wait gives the key back.
func (r *Relay) PublishWait(ctx context.Context, row Row) error {
	key := "outbox:wait:" + row.ID
	if !r.rdb.SetNX(ctx, key, uuid.NewString(), time.Minute).Val() {
		return nil
	}
	confirms, err := r.broker.Publish(ctx, row.Payload)
	if err != nil {
		r.rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
		return err
	}
	select {
	case <-confirms:
		r.rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	case <-ctx.Done():
		r.rdb.Del(ctx, key) // want "DEL of lock key `key` without an owner check"
	}
	return nil
}

// Must report: the delete sits under a compare of the value read back, a
// release in two round trips; the path that skips it is another holder's
// key, not a claim kept.
func (r *Relay) PublishChecked(ctx context.Context, row Row) error {
	key := "outbox:checked:" + row.ID
	token := uuid.NewString()
	ok, err := r.rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	} else {
		println("locked")
	}
	if _, err := r.broker.Publish(ctx, row.Payload); err != nil {
		return err
	}
	value, _ := r.rdb.Get(ctx, key).Result()
	if value == token {
		r.rdb.Del(ctx, key) // want "GET on line 138 and this DEL of lock key `key` are two round trips"
	}
	return nil
}
