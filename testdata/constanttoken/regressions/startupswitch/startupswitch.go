// Package startupswitch pins a service's maintenance switch: at start-up
// the pool writes the switch's default, false, only when it is absent and
// with no TTL, and the API reads it on every request to refuse work while
// it is on. Nothing takes it to work under it, releases or renews it: it
// is a setting, and its constant value protects no owner check. The twin
// takes a job lock with a constant and deletes it after the work.
package startupswitch

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const systemGlobalLockKey = "system:global_lock"

type Pool struct{ Client *redis.Client }

// Silent: the switch's default, written once.
func NewPool(ctx context.Context, opts *redis.Options) (*Pool, error) {
	rdb := redis.NewClient(opts)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := rdb.SetNX(ctx, systemGlobalLockKey, false, 0).Err(); err != nil {
		return nil, err
	}
	return &Pool{Client: rdb}, nil
}

// Must report: a job lock whose holders all store the same value.
func (p *Pool) RunJob(ctx context.Context, job string, run func()) error {
	ok, err := p.Client.SetNX(ctx, "lock:job:"+job, "1", time.Minute).Result() // want "lock key `\"lock:job:\" \\+ job` acquired with a non-unique token"
	if err != nil || !ok {
		return err
	}
	defer p.Client.Eval(ctx, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`, []string{"lock:job:" + job}, "1")
	run()
	return nil
}
