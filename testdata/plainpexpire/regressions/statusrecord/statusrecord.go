// Package statusrecord pins an idempotency key that changes state: a
// message's processing is claimed with SETNX of "processing" for a few
// seconds, and once handled the key is overwritten with "processed" for a
// day, the record that later deliveries read. The overwrite is the
// record's next state, not a renewal of the claim. The twins renew a lock
// with a plain SET of the holder's own value, which overwrites whoever
// holds it.
package statusrecord

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

const (
	StatusProcessing = "processing"
	StatusProcessed  = "processed"
)

type Idempotence struct {
	rdb *redis.Client
}

func (i *Idempotence) Exec(ctx context.Context, key string, exec func(context.Context) error) error {
	k := "idempotency:lock:" + key
	ok, err := i.rdb.SetNX(ctx, k, StatusProcessing, 5*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	if err := exec(ctx); err != nil {
		return err
	}
	// Near miss (silent): the record's terminal state.
	return i.rdb.Set(ctx, k, StatusProcessed, 24*time.Hour).Err()
}

// ExecHelpers is Exec through the store's own helpers, each of which
// fixes the value it writes.
func (i *Idempotence) ExecHelpers(ctx context.Context, key string, exec func(context.Context) error) error {
	k := "idempotency:lock:helpers:" + key
	ok, err := i.claim(ctx, k)
	if err != nil || !ok {
		return err
	}
	if err := exec(ctx); err != nil {
		return err
	}
	// Near miss (silent): the record's terminal state, through a helper.
	return i.markProcessed(ctx, k)
}

func (i *Idempotence) claim(ctx context.Context, key string) (bool, error) {
	return i.rdb.SetNX(ctx, key, StatusProcessing, 5*time.Second).Result()
}

func (i *Idempotence) markProcessed(ctx context.Context, key string) error {
	return i.rdb.Set(ctx, key, StatusProcessed, 24*time.Hour).Err()
}

func (i *Idempotence) Processed(ctx context.Context, key string) (bool, error) {
	status, err := i.rdb.Get(ctx, "idempotency:lock:"+key).Result()
	return status == StatusProcessed, err
}

// Must report: the lock renewed with a plain SET of its own token.
func renewToken(ctx context.Context, rdb *redis.Client, job string, work func()) {
	key := "job:lock:" + job
	token := uuid.NewString()
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	work()
	rdb.Set(ctx, key, token, time.Minute) // want "SET of lock key `key` without NX or IFEQ overwrites whoever holds it"
	work()
}

// Must report: the same constant written again is a renewal too.
func renewConstant(ctx context.Context, rdb *redis.Client, work func()) {
	if !rdb.SetNX(ctx, "report:lock", 1, time.Minute).Val() {
		return
	}
	work()
	rdb.Set(ctx, "report:lock", "1", time.Minute) // want "SET of lock key .* without NX or IFEQ overwrites whoever holds it"
	work()
}
