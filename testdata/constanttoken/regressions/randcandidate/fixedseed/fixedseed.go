// Package fixedseed is randcandidate's job master with the global source
// seeded with a constant: every process draws the same candidacy, and two
// of them are master at once.
package fixedseed

import (
	"context"
	"fmt"
	"math/rand"
	"time"

	"github.com/redis/go-redis/v9"
)

func init() {
	rand.Seed(1)
}

type Job struct {
	Name     string
	Value    string
	IsMaster bool
	rdb      *redis.Client
}

func newJob(rdb *redis.Client, name string) *Job {
	return &Job{rdb: rdb, Name: "spr:" + name, Value: fmt.Sprintf("%d", rand.Intn(100000000)+1)}
}

func (j *Job) run(ctx context.Context) {
	v, err := j.rdb.Get(ctx, j.Name).Result()
	switch {
	case err == nil && v == j.Value:
		j.IsMaster = true
		j.rdb.Expire(ctx, j.Name, 90*time.Second)
	case err == redis.Nil:
		ok, err := j.rdb.SetNX(ctx, j.Name, j.Value, 90*time.Second).Result() // want "acquired with a non-unique token"
		j.IsMaster = err == nil && ok
	default:
		j.IsMaster = false
	}
}
