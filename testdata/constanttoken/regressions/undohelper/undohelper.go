// Package undohelper pins claims that their takers keep when the work
// succeeded and give back through a helper only when it failed: a
// pending-enqueue key cleared by a method when the publish failed, a
// marker rolled back by a bound function literal, a once-only marker
// taken by one helper and undone by another from a deferred check, and a
// period slot given back in a loop when its enqueue failed. Each undo
// lets the next run retry; none gives back a lock held across work. The
// twins call the same helpers after the work too, or take a lease short
// enough to lapse within a slow request and release it elsewhere: locks,
// whose constant value an owner check could not tell apart.
package undohelper

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Broker interface {
	Publish(queue string, body []byte) error
}

type Tasks struct {
	rdb    *redis.Client
	broker Broker
}

func pendingKey(user int64, kind string) string {
	return fmt.Sprintf("crawl:pending:%d:%s", user, kind)
}

// Enqueue queues one crawl per user and kind: a duplicate finds the
// pending key and is skipped; a failed publish clears it.
func (t *Tasks) Enqueue(ctx context.Context, user int64, kind string) (bool, error) {
	ok, err := t.rdb.SetNX(ctx, pendingKey(user, kind), "1", 15*time.Minute).Result()
	if err == nil && !ok {
		return false, nil
	}
	body := []byte(fmt.Sprint(user))
	if len(body) == 0 {
		t.clearPending(ctx, user, kind)
		return false, errors.New("empty body")
	}
	if err := t.broker.Publish("crawl", body); err != nil {
		t.clearPending(ctx, user, kind)
		return false, err
	}
	return true, nil
}

func (t *Tasks) clearPending(ctx context.Context, user int64, kind string) {
	_ = t.rdb.Del(ctx, pendingKey(user, kind)).Err()
}

// Patch asks for a patch package to be built once a week per version
// pair; the key is rolled back when the task could not be queued.
func (t *Tasks) Patch(ctx context.Context, from, to string) (bool, error) {
	key := "patch:build:" + from + ":" + to
	res := t.rdb.SetNX(ctx, key, 1, 7*24*time.Hour)
	if err := res.Err(); err != nil {
		return false, err
	}
	if !res.Val() {
		return false, nil
	}
	rollback := func() {
		t.rdb.Del(ctx, key)
	}
	if from == to {
		rollback()
		return false, errors.New("same version")
	}
	if err := t.broker.Publish("patch", []byte(key)); err != nil {
		rollback()
		return false, err
	}
	return true, nil
}

func (t *Tasks) markOnce(ctx context.Context, upload string) (bool, error) {
	res, err := t.rdb.SetArgs(ctx, "upload:complete:"+upload, "1", redis.SetArgs{TTL: 24 * time.Hour, Mode: "NX"}).Result()
	if err == redis.Nil {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return res == "OK", nil
}

func (t *Tasks) unmark(ctx context.Context, upload string) {
	t.rdb.Del(ctx, "upload:complete:"+upload)
}

// Complete charges an upload's size to the user's quota once.
func (t *Tasks) Complete(ctx context.Context, upload string, charge func() error) error {
	first, err := t.markOnce(ctx, upload)
	if err != nil {
		return err
	}
	if !first {
		return nil
	}
	charged := false
	defer func() {
		if !charged {
			t.unmark(ctx, upload)
		}
	}()
	if err := charge(); err != nil {
		return err
	}
	charged = true
	return nil
}

func slotKey(user int64, period int64) string {
	return fmt.Sprintf("cron:claim:%d:%d", user, period)
}

func (t *Tasks) tryClaim(ctx context.Context, user, period int64) bool {
	ok, err := t.rdb.SetNX(ctx, slotKey(user, period), period, time.Hour).Result()
	return err == nil && ok
}

func (t *Tasks) releaseClaim(ctx context.Context, user, period int64) {
	_ = t.rdb.Del(ctx, slotKey(user, period)).Err()
}

// Tick queues each user's crawl once per period.
func (t *Tasks) Tick(ctx context.Context, users []int64, period int64) int {
	queued := 0
	for _, u := range users {
		if !t.tryClaim(ctx, u, period) {
			continue
		}
		if _, err := t.Enqueue(ctx, u, "tick"); err != nil {
			t.releaseClaim(ctx, u, period)
			continue
		}
		queued++
	}
	return queued
}

func jobKey(job string) string {
	return "job:run:" + job
}

// Must report: Run gives the key back through the same kind of helper
// after the work as well: a lock, released with an owner check that its
// constant passes for every holder.
func (t *Tasks) Run(ctx context.Context, job string, work func() error) error {
	ok, err := t.rdb.SetNX(ctx, jobKey(job), "1", time.Minute).Result() // want "acquired with a non-unique token \\(the constant `\"1\"`\\)"
	if err != nil || !ok {
		return errors.New("busy")
	}
	if err := work(); err != nil {
		t.dropJob(ctx, job)
		return err
	}
	t.dropJob(ctx, job)
	return nil
}

func (t *Tasks) dropJob(ctx context.Context, job string) {
	_ = t.rdb.Eval(ctx, unlock, []string{jobKey(job)}, "1").Err()
}

func shardKey(shard string) string {
	return "shard:busy:" + shard
}

// Must report: a short lease, given back on failure by one helper and
// after the work by Finish: the failure's undo may delete a holder that
// took the key once the lease lapsed.
func (t *Tasks) Start(ctx context.Context, shard string) (bool, error) {
	ok, err := t.rdb.SetNX(ctx, shardKey(shard), "1", 5*time.Second).Result() // want "acquired with a non-unique token \\(the constant `\"1\"`\\)"
	if err != nil || !ok {
		return false, err
	}
	if err := t.broker.Publish("shard", []byte(shard)); err != nil {
		t.undoShard(ctx, shard)
		return false, err
	}
	return true, nil
}

func (t *Tasks) undoShard(ctx context.Context, shard string) {
	_ = t.rdb.Del(ctx, shardKey(shard)).Err()
}

func (t *Tasks) Finish(ctx context.Context, shard string) error {
	return t.rdb.Eval(ctx, unlock, []string{shardKey(shard)}, "1").Err()
}

// Must report: the rollback literal, an owner check its constant passes
// for every holder, also runs after the work.
func (t *Tasks) Rebuild(ctx context.Context, index string, work func() error) error {
	key := "index:rebuild:" + index
	if ok, err := t.rdb.SetNX(ctx, key, 1, time.Minute).Result(); err != nil || !ok { // want "acquired with a non-unique token \\(the constant `1`\\)"
		return errors.New("busy")
	}
	rollback := func() {
		t.rdb.Eval(ctx, unlock, []string{key}, 1)
	}
	if err := work(); err != nil {
		rollback()
		return err
	}
	rollback()
	return nil
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`
