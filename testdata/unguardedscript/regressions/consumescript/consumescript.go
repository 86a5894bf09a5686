// Package consumescript pins a script that takes a record back: it reads
// a usage lease's value, deletes the key and returns the value, so that
// one report gets the estimate and any other gets nothing. The key holds
// a number written with plain SET, never a holder's token, and no command
// compares it: the DEL gives back no lock. The twin deletes a job's lock,
// which is taken with SET NX and a token, and returns 1 without reading
// whose it is.
package consumescript

import (
	"context"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Pool struct{ rdb *redis.Client }

func LeaseKey(id string) string { return "keypool:lease:" + id }

func (p *Pool) LeaseSet(ctx context.Context, id string, est float64) error {
	return p.rdb.Set(ctx, LeaseKey(id), strconv.FormatFloat(est, 'f', -1, 64), 10*time.Minute).Err()
}

// Near miss (silent).
var leaseTake = redis.NewScript(`
local v = redis.call("GET", KEYS[1])
if v then
	redis.call("DEL", KEYS[1])
end
return v
`)

func (p *Pool) LeaseTake(ctx context.Context, id string) (string, error) {
	return leaseTake.Run(ctx, p.rdb, []string{LeaseKey(id)}).Text()
}

// Must report: the release below runs it.
var dropJob = redis.NewScript("if redis.call('EXISTS', KEYS[1]) == 1 then\n\tredis.call('DEL', KEYS[1])\nend\nreturn 1") // want "Lua line 2: DEL of KEYS\\[1\\] \\(lock key `key`\\) with no owner check"

func (p *Pool) RunJob(ctx context.Context, job string, run func() error) error {
	key := "job:lock:" + job
	ok, err := p.rdb.SetNX(ctx, key, uuid.NewString(), time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer dropJob.Run(ctx, p.rdb, []string{key})
	return run()
}
