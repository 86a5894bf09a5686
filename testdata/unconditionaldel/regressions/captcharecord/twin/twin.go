// Package twin takes its job keys with SET NX and releases them with a
// GET-compare and a separate DEL: an owner check in two round trips.
package twin

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Jobs struct{ rdb *redis.Client }

func (j *Jobs) key(job string) string { return "job:" + job }

func (j *Jobs) Claim(ctx context.Context, job, owner string) (bool, error) {
	return j.rdb.SetNX(ctx, j.key(job), owner, time.Minute).Result()
}

func (j *Jobs) Done(ctx context.Context, job, owner string) error {
	k := j.key(job)
	v, err := j.rdb.Get(ctx, k).Result()
	if err != nil || v != owner {
		return err
	}
	return j.rdb.Del(ctx, k).Err() // want "GET on line 22 and this DEL of lock key"
}
