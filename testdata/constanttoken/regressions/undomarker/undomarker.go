// Package undomarker pins a process-once dedupe key whose only delete
// undoes it when the work failed: a consumer takes processed:order:<id>
// with SETNX, the value "1" and a day's TTL, skips the message when the
// key is there, and deletes the key only when the work failed with an
// error worth a retry. Success keeps the key until it expires. Nothing
// compares the value, so a constant protects nothing and is no finding.
// The twin deletes its key after the work whatever happens, through a
// compare-and-delete script given the same constant: every holder passes
// that owner check.
package undomarker

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Worker struct {
	rdb     *redis.Client
	deduct  func(ctx context.Context, order int64) error
	publish func(ctx context.Context, order int64) error
}

// Near miss (silent): the delete runs only when the deduction failed.
func (w *Worker) Handle(ctx context.Context, order int64) error {
	key := fmt.Sprintf("processed:order:%d", order)
	ok, err := w.rdb.SetNX(ctx, key, "1", 24*time.Hour).Result()
	if err != nil {
		return err
	}
	if !ok {
		return nil
	}
	if err := w.deduct(ctx, order); err != nil {
		if delErr := w.rdb.Del(ctx, key).Err(); delErr != nil {
			return fmt.Errorf("%w (and the marker stays: %v)", err, delErr)
		}
		return err
	}
	return nil
}

var releaseIfOwner = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

// Must report: the key is given back after every run, through an owner
// check that every holder's "1" passes.
func (w *Worker) Publish(ctx context.Context, order int64) error {
	key := fmt.Sprintf("publish:lock:%d", order)
	ok, err := w.rdb.SetNX(ctx, key, "1", time.Minute).Result() // want "lock key `key` acquired with a non-unique token \\(the constant `\"1\"`\\)"
	if err != nil || !ok {
		return err
	}
	defer releaseIfOwner.Run(ctx, w.rdb, []string{key}, "1")
	return w.publish(ctx, order)
}
