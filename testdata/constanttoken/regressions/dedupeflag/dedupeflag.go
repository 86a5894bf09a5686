// Package dedupeflag pins a deduplication flag of an uplink collector:
// every instance hears the same frame, each adds it to a set, and the
// first to take "<frame>:lock" with SETNX (a constant value, a TTL of
// twice the collection window) collects the set after the window; the
// others return. Nothing gives the flag back, renews it or reads it: it
// expires. The key comes from another package's key maker with a
// template constant, through a helper that returns whether the flag was
// already set. A marker: nothing compares its value.
package dedupeflag

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"locklint.test/constanttoken/regressions/dedupeflag/keys"
)

const (
	collectTempl     = "rx:collect:%s"
	collectLockTempl = "rx:collect:%s:lock"
)

type Collector struct {
	rdb    *redis.Client
	window time.Duration
}

func (c *Collector) Collect(ctx context.Context, frame string, handle func([]string)) error {
	key := keys.Key(collectTempl, frame)
	lockKey := keys.Key(collectLockTempl, frame)
	if err := c.rdb.SAdd(ctx, key, frame).Err(); err != nil {
		return err
	}
	if locked, err := c.locked(lockKey, 2*c.window); err != nil || locked {
		return err
	}
	time.Sleep(c.window)
	items, err := c.rdb.SMembers(ctx, key).Result()
	if err != nil {
		return err
	}
	handle(items)
	return nil
}

func (c *Collector) locked(key string, ttl time.Duration) (bool, error) {
	set, err := c.rdb.SetNX(context.Background(), key, "lock", ttl).Result()
	if err != nil {
		return false, err
	}
	return !set, nil
}

// The twin: the same flag, given back once the batch is handled by an
// owner-checked script, which its constant value passes for every holder,
// so a later holder's flag can be deleted by an earlier one.
type Batcher struct {
	rdb *redis.Client
}

func (b *Batcher) Run(ctx context.Context, batch string, work func()) error {
	lockKey := keys.Key("batch:%s:lock", batch)
	if held, err := b.held(lockKey); err != nil || held {
		return err
	}
	defer b.rdb.Eval(context.Background(), unlock, []string{lockKey}, "lock")
	work()
	return nil
}

func (b *Batcher) held(key string) (bool, error) {
	set, err := b.rdb.SetNX(context.Background(), key, "lock", time.Minute).Result() // want "acquired with a non-unique token \\(the constant `\"lock\"`\\)"
	if err != nil {
		return false, err
	}
	return !set, nil
}

const (
	CollectTempl     = "up:collect:%s"
	CollectLockTempl = "up:collect:%s:lock"
)

func collectOnce(frame string, ttl time.Duration, handle func([]string)) error {
	key := keys.Key(CollectTempl, frame)
	lockKey := keys.Key(CollectLockTempl, frame)
	if err := keys.Client().SAdd(context.Background(), key, frame).Err(); err != nil {
		return err
	}
	if locked, err := collectOnceLocked(lockKey, 2*ttl); err != nil || locked {
		return err
	}
	items, err := collectOnceTake(key)
	if err != nil {
		return err
	}
	handle(items)
	return nil
}

// collectOnceTake reads and deletes the set in one pipeline.
func collectOnceTake(key string) ([]string, error) {
	pipe := keys.Client().Pipeline()
	members := pipe.SMembers(context.Background(), key)
	pipe.Del(context.Background(), key)
	if _, err := pipe.Exec(context.Background()); err != nil {
		return nil, err
	}
	return members.Val(), nil
}

func collectOnceLocked(key string, ttl time.Duration) (bool, error) {
	set, err := keys.Client().SetNX(context.Background(), key, "lock", ttl).Result()
	if err != nil {
		return false, err
	}
	return !set, nil
}

// The near miss: a helper that gives back whatever its callers pass
// (with an owner check), and its one caller passes the marker's own key:
// a lock released after the work, whose constant value the owner check
// cannot tell apart.
func runJob(job string, work func()) error {
	lockKey := keys.Key("job:%s:lock", job)
	if locked, err := jobLocked(lockKey); err != nil || locked {
		return err
	}
	defer dropKey(lockKey)
	work()
	return nil
}

func jobLocked(key string) (bool, error) {
	set, err := keys.Client().SetNX(context.Background(), key, "lock", time.Minute).Result() // want "acquired with a non-unique token \\(the constant `\"lock\"`\\)"
	if err != nil {
		return false, err
	}
	return !set, nil
}

func dropKey(key string) {
	keys.Client().Eval(context.Background(), unlock, []string{key}, "lock")
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`
