// Package tickmarker pins a scheduler's per-tick marker: an unexported
// lock helper takes the key its only caller passes, a key that a helper of
// the package makes, and nothing releases a key of that helper; the
// caller hands the key on only to a function that derives another key
// from it. The twin's caller hands the key to a function that deletes it
// with an owner check: a lock, whose constant token is a bug.
package tickmarker

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Job struct{ Name, Spec string }

type Cron struct{ rdb *redis.Client }

func (c *Cron) jobKey(j *Job) string     { return "cron:" + j.Name + ":" + j.Spec }
func runningKey(key string) string       { return key + ":running" }
func (c *Cron) doneKey(j *Job) string    { return "cron:done:" + j.Name }
func (c *Cron) claimedKey(j *Job) string { return "cron:claimed:" + j.Name }

func (c *Cron) lock(ctx context.Context, key string, period time.Duration) bool {
	ok, err := c.rdb.SetNX(ctx, key, 1, period/2).Result()
	if err != nil || !ok {
		return false
	}
	return true
}

func (c *Cron) started(ctx context.Context, key string) {
	c.rdb.Set(ctx, runningKey(key), time.Now().Unix(), time.Hour)
}

func (c *Cron) Tick(ctx context.Context, j *Job, run func()) {
	key := c.jobKey(j)
	if !c.lock(ctx, key, time.Minute) {
		return
	}
	c.started(ctx, key)
	run()
}

func (c *Cron) tryLock(ctx context.Context, key string) bool {
	ok, err := c.rdb.SetNX(ctx, key, "1", time.Minute).Result() // want "lock key `key` \\(key of `\\(\\*Cron\\).tryLock`\\) acquired with a non-unique token \\(the constant `\"1\"`\\)"
	return err == nil && ok
}

func (c *Cron) unlock(ctx context.Context, key string) { c.rdb.Eval(ctx, unlock, []string{key}, "1") }

func (c *Cron) Claim(ctx context.Context, j *Job, run func()) {
	key := c.claimedKey(j)
	if !c.tryLock(ctx, key) {
		return
	}
	defer c.unlock(ctx, key)
	run()
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`
